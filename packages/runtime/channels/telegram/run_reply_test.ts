import assert from "node:assert/strict";
import { runReplyText } from "./run_reply.ts";

const answer = (content: string) => ({ kind: "message", role: "assistant", content });
const CASES: [string, Parameters<typeof runReplyText>[0], string][] = [
  ["a completed Run sends its last answer", {
    status: "completed",
    reasonCode: null,
    items: [{ kind: "message", role: "user", content: "q" }, answer("first"), answer(" last ")],
  }, "last"],
  [
    "a completed Run without text says so",
    { status: "completed", reasonCode: null, items: [] },
    "(The run finished without an answer.)",
  ],
  ["a cancelled Run says it stopped", {
    status: "cancelled",
    reasonCode: "user_cancelled",
    items: [answer("partial")],
  }, "Stopped."],
  [
    "a failed Run names its reason",
    { status: "failed", reasonCode: "provider_timeout", items: [] },
    "The run failed (provider_timeout).",
  ],
  ["a failed Run keeps its partial answer", {
    status: "failed",
    reasonCode: "runtime_interrupted",
    items: [answer("half")],
  }, "half\n\n(The run failed: runtime_interrupted.)"],
];

for (const [name, run, expected] of CASES) {
  Deno.test(`runReplyText: ${name}`, () => assert.equal(runReplyText(run), expected));
}

import assert from "node:assert/strict";
import type { ApprovalDecision } from "@daedalus/protocol";
import { approvalAnswer, toolParameters, trailingToolResults, userText } from "./ag_ui_input.ts";

Deno.test("trailing tool messages are the results; earlier ones are history", () => {
  const messages = [
    { id: "u", role: "user", content: "hi" },
    { id: "t0", role: "tool", toolCallId: "old", content: "before" },
    { id: "a", role: "assistant", toolCalls: [] },
    { id: "t1", role: "tool", toolCallId: "c1", content: "one" },
    {
      id: "t2",
      role: "tool",
      toolCallId: "c2",
      content: [{ type: "text", text: "x" }],
      error: "no",
    },
  ];
  assert.deepEqual(trailingToolResults(messages), [
    { toolCallId: "c1", content: "one" },
    { toolCallId: "c2", content: '[{"type":"text","text":"x"}]', error: "no" },
  ]);
  assert.deepEqual(trailingToolResults(messages.slice(0, 3)), [], "ends with an assistant");
  assert.deepEqual(trailingToolResults([]), []);
});

Deno.test("a client tool's parameters become an object schema; user text joins text parts", () => {
  const schema = { type: "object", properties: { a: { type: "string" } } };
  assert.equal(toolParameters(schema), schema);
  for (const odd of [undefined, null, "x", [1], 3]) {
    assert.deepEqual(toolParameters(odd), { type: "object", properties: {} }, String(odd));
  }
  assert.equal(userText("plain"), "plain");
  assert.equal(
    userText([{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }]),
    "a\nb",
  );
  assert.equal(userText(42), "");
});

Deno.test("a resume entry answers an approval with a decision it offers", () => {
  const offered: ApprovalDecision[] = ["allow_once", "allow_thread", "deny"];
  const cases: [string, { status: "resolved" | "cancelled"; payload?: unknown }, unknown][] = [
    ["resolved without payload allows once", { status: "resolved" }, { decision: "allow_once" }],
    ["cancelled denies", { status: "cancelled", payload: { decision: "allow_once" } }, {
      decision: "deny",
    }],
    ["an offered decision", { status: "resolved", payload: { decision: "allow_thread" } }, {
      decision: "allow_thread",
    }],
    ["with the person's words", {
      status: "resolved",
      payload: { decision: "deny", message: "no" },
    }, {
      decision: "deny",
      message: "no",
    }],
    ["a decision not offered", { status: "resolved", payload: { decision: "allow_always" } }, null],
    ["a made-up decision", { status: "resolved", payload: { decision: "sure" } }, null],
    ["a non-object payload", { status: "resolved", payload: "yes" }, { decision: "allow_once" }],
    ["a question's text answer", { status: "resolved", payload: { answer: "9090" } }, {
      decision: "allow_once",
      answer: "9090",
    }],
    ["a question's picked choices", {
      status: "resolved",
      payload: { decision: "allow_once", answer: ["a", "b"] },
    }, { decision: "allow_once", answer: ["a", "b"] }],
    ["an answer that is no text", { status: "resolved", payload: { answer: 3 } }, {
      decision: "allow_once",
    }],
  ];
  for (const [name, entry, expected] of cases) {
    assert.deepEqual(approvalAnswer(entry, offered), expected, name);
  }
  assert.equal(
    approvalAnswer({ status: "resolved" }, ["deny"]),
    null,
    "a budget-like approval without allow_once needs a named decision",
  );
});

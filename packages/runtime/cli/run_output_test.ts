import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { addUsage, createRunPrinter, type RunSummaryLine } from "./run_output.ts";

function capture(json: boolean, colour = false) {
  const out = { stdout: "", stderr: "" };
  const printer = createRunPrinter(json, {
    stdout: (text) => out.stdout += text,
    stderr: (text) => out.stderr += text,
    colour,
  });
  return { out, printer };
}

const envelope = {
  seq: 1,
  schemaVersion: 1,
  threadId: "t",
  branchId: "b",
  turnId: "u",
  runId: "r",
  itemId: "i",
  timestamp: "2026-01-01T00:00:00.000Z",
};
const event = (type: string, payload: Record<string, unknown>) =>
  ({
    ...envelope,
    type,
    payload: { turnId: "u", runId: "r", itemId: "i", ...payload },
  }) as unknown as JournalEvent;
const item = (kind: string, fields: Record<string, unknown>) => ({
  id: "i",
  turnId: "u",
  runId: "r",
  ordinal: 1,
  kind,
  role: null,
  status: "completed",
  content: "",
  data: {},
  createdAt: envelope.timestamp,
  updatedAt: envelope.timestamp,
  ...fields,
});
const summary = (status: string, reasonCode: string | null = null): RunSummaryLine => ({
  type: "summary",
  status,
  reasonCode,
  usage: null,
  threadId: "t",
  runId: "r",
});

Deno.test("text: answer deltas on stdout, tool activity and reasoning on stderr", () => {
  const { out, printer } = capture(false);
  printer.event(event("item.delta", { delta: "thinking…", field: "reasoning" }));
  printer.event(
    event("item.started", {
      item: item("tool_call", { data: { toolId: "read", arguments: { path: "a.txt" } } }),
    }),
  );
  printer.event(
    event("item.completed", { item: item("tool_result", { content: "1\tx\n2\ty\n" }) }),
  );
  printer.event(
    event("item.completed", {
      item: item("tool_result", { status: "failed", content: "no such file\nmore" }),
    }),
  );
  printer.event(event("item.delta", { delta: "The " }));
  printer.event(event("item.delta", { delta: "answer" }));
  printer.finish(summary("completed"));
  assert.equal(out.stdout, "The answer\n");
  assert.equal(out.stderr, 'thinking…\n→ read {"path":"a.txt"}\n  ✓ 2 lines\n  ✗ no such file\n');
});

Deno.test("text: colour only when allowed, and a failed Run named at the end", () => {
  const plain = capture(false);
  plain.printer.finish(summary("failed", "provider_unavailable"));
  assert.equal(plain.out.stderr, "Run failed (provider_unavailable)\n");
  const coloured = capture(false, true);
  coloured.printer.finish(summary("cancelled"));
  assert.equal(coloured.out.stderr, "\x1b[31mRun cancelled\x1b[0m\n");
  assert.equal(coloured.out.stdout, "", "no newline without an answer");
});

Deno.test("json: each event as one line, then the summary", () => {
  const { out, printer } = capture(true);
  const delta = event("item.delta", { delta: "hi\nthere" });
  printer.event(delta);
  printer.notice("a notice");
  printer.finish(summary("completed"));
  const lines = out.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(lines, [delta, summary("completed")]);
  assert.equal(out.stderr, "a notice\n");
});

Deno.test("addUsage sums calls and keeps unknown counts null", () => {
  const a = {
    inputTokens: 10,
    cachedInputTokens: null,
    outputTokens: 2,
    reasoningOutputTokens: null,
    totalTokens: 12,
  };
  const b = {
    inputTokens: 5,
    cachedInputTokens: 3,
    outputTokens: 1,
    reasoningOutputTokens: null,
    totalTokens: 6,
  };
  assert.equal(addUsage(null, null), null);
  assert.deepEqual(addUsage(null, a), a);
  assert.deepEqual(addUsage(a, null), a);
  assert.deepEqual(addUsage(a, b), {
    inputTokens: 15,
    cachedInputTokens: 3,
    outputTokens: 3,
    reasoningOutputTokens: null,
    totalTokens: 18,
  });
});

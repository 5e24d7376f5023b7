import assert from "node:assert/strict";
import { CANONICAL_EVENT_TYPES, CanonicalEvent } from "./mod.ts";

const usage = {
  inputTokens: 10,
  cachedInputTokens: null,
  outputTokens: 5,
  reasoningOutputTokens: null,
  totalTokens: 15,
};

/** One valid event of each type, and ways each can be wrong. */
const CASES: { valid: Record<string, unknown>; invalid: [string, Record<string, unknown>][] }[] = [
  {
    valid: { type: "text_delta", messageId: "m1", delta: "Hi" },
    invalid: [["an empty delta", { delta: "" }], ["no messageId", { messageId: undefined }]],
  },
  {
    valid: { type: "reasoning_delta", messageId: "m1", delta: "thinking" },
    invalid: [["an empty delta", { delta: "" }]],
  },
  {
    valid: {
      type: "file_output",
      fileId: "f1",
      kind: "image",
      mimeType: "image/png",
      url: "https://example.com/a.png",
      name: null,
    },
    invalid: [["an unknown kind", { kind: "spreadsheet" }], ["an empty url", { url: "" }]],
  },
  {
    valid: { type: "tool_call_start", toolCallId: "c1", name: "read_file", argsDelta: "" },
    invalid: [["no name", { name: "" }], ["non-string args", { argsDelta: { a: 1 } }]],
  },
  {
    valid: { type: "tool_call_end", toolCallId: "c1", result: "ok", isError: false },
    invalid: [["a missing isError", { isError: undefined }]],
  },
  {
    valid: { type: "subagent_start", runId: "r1", agentName: "research", taskDescription: "x" },
    invalid: [["no agentName", { agentName: "" }]],
  },
  {
    valid: { type: "subagent_end", runId: "r1", agentName: "research", status: "failed" },
    invalid: [["an unknown status", { status: "waiting" }]],
  },
  {
    valid: {
      type: "node_lifecycle",
      nodeId: "n1",
      nodeType: "model",
      title: "Model call 1",
      phase: "start",
      metadata: {},
    },
    invalid: [["an unknown phase", { phase: "middle" }], ["array metadata", { metadata: [] }]],
  },
  {
    valid: {
      type: "interrupt",
      interruptId: "appr_1",
      nodeName: null,
      message: "Run `rm -rf build`?",
      data: { decisions: ["allow_once", "deny"] },
    },
    invalid: [["an empty message", { message: "" }]],
  },
  {
    valid: { type: "usage", usage },
    invalid: [["negative tokens", { usage: { ...usage, inputTokens: -1 } }]],
  },
  {
    valid: { type: "error", code: "provider_error", message: "boom", recoverable: false },
    invalid: [["no code", { code: "" }], ["a missing recoverable", { recoverable: undefined }]],
  },
  {
    valid: { type: "custom", name: "daedalus.file_change", payload: { path: "a.ts" } },
    invalid: [["no name", { name: "" }]],
  },
  {
    valid: { type: "done", status: "completed", usage: null },
    invalid: [["an unsettled status", { status: "running" }]],
  },
];

Deno.test("there are 13 canonical event types and a case for each", () => {
  assert.equal(CANONICAL_EVENT_TYPES.length, 13);
  assert.deepEqual(CASES.map((c) => c.valid.type), [...CANONICAL_EVENT_TYPES]);
});

for (const { valid, invalid } of CASES) {
  Deno.test(`canonical ${valid.type}: accepts a valid event, refuses bad ones`, () => {
    const ok = CanonicalEvent.safeParse(valid);
    assert.ok(ok.success, `valid ${valid.type} refused: ${JSON.stringify(ok.error?.issues)}`);
    for (const [what, change] of invalid) {
      const bad = { ...valid, ...change };
      for (const [key, value] of Object.entries(change)) if (value === undefined) delete bad[key];
      assert.ok(!CanonicalEvent.safeParse(bad).success, `${valid.type} with ${what} accepted`);
    }
  });
}

Deno.test("an unknown canonical type is refused", () => {
  assert.ok(!CanonicalEvent.safeParse({ type: "text", messageId: "m", delta: "x" }).success);
});

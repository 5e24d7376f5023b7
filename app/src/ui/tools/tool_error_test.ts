import assert from "node:assert/strict";
import type { Item } from "@daedalus/client";
import { TOOL_ERROR_MAX_CHARS, TOOL_ERROR_MAX_LINES, toolErrorOf } from "./tool_error.ts";

function result(content: string, data: Record<string, unknown>, status = "completed"): Item {
  return {
    id: "item_0123456789abcdef0123456789abcdef",
    turnId: "turn_0123456789abcdef0123456789abcdef",
    runId: "run_0123456789abcdef0123456789abcdef",
    ordinal: 3,
    kind: "tool_result",
    role: "tool",
    status,
    content,
    data: { toolId: "read", ...data },
    createdAt: "2026-12-01T00:00:00.000Z",
    updatedAt: "2026-12-01T00:00:00.000Z",
  } as Item;
}

Deno.test("a failed result shows the tool's own words and its code", () => {
  assert.deepEqual(
    toolErrorOf(result("File not found: notes.txt", { isError: true, errorCode: "not_found" })),
    { message: "File not found: notes.txt", code: "not_found" },
  );
  assert.deepEqual(
    toolErrorOf(result("Cancelled", {}, "failed")),
    { message: "Cancelled", code: null },
    "a failed status without isError still counts, and no code is no code",
  );
});

Deno.test("a successful result or a call has no error", () => {
  assert.equal(toolErrorOf(result("1\thello", { isError: false })), null);
  assert.equal(toolErrorOf({ ...result("x", { isError: true }), kind: "tool_call" } as Item), null);
});

Deno.test("a long message is cut to a few lines and characters, marked with an ellipsis", () => {
  const many = Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\n");
  const shown = toolErrorOf(result(many, { isError: true }))!;
  assert.equal(shown.message.split("\n").length, TOOL_ERROR_MAX_LINES);
  assert.ok(shown.message.endsWith("…"));
  const wide = toolErrorOf(result("x".repeat(5_000), { isError: true }))!;
  assert.equal(wide.message.length, TOOL_ERROR_MAX_CHARS + 1);
});

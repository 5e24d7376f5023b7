/**
 * The memory tool's one-object schema is as strict as the union it replaced: each action
 * takes exactly its fields. Runs over an in-memory {@linkcode MemoryOperations} (the
 * runtime's over memory.db is exercised in packages/runtime/memory/memory_flow_test.ts).
 */
import assert from "node:assert/strict";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import type { MemoryOperations, MemoryWrite } from "./memory_operations.ts";
import { memoryTool } from "./memory.ts";

const MEMORY = `memory_${"d".repeat(32)}`;

function recordingMemory() {
  const calls: unknown[] = [];
  const write = (memoryId: string): MemoryWrite => ({ memoryId, resultingRevision: 2 });
  const memory: MemoryOperations = {
    search: (query, limit) => {
      calls.push({ search: query, limit });
      return {
        memories: [{ memoryId: MEMORY, revision: 1, kind: "fact", content: "tea" }],
        omittedCount: 0,
      };
    },
    save: (request) => {
      calls.push({ save: request });
      return write(MEMORY);
    },
    update: (request) => {
      calls.push({ update: request });
      return write(request.memoryId);
    },
    forget: (request) => {
      calls.push({ forget: request });
      return write(request.memoryId);
    },
  };
  return { memory, calls };
}

Deno.test("each action takes exactly its fields; anything else is invalid_arguments", async () => {
  await using ws = await createTestWorkspace({ protectedValues: ["sk-secret-value-123"] });
  const { memory, calls } = recordingMemory();
  const context = { ...ws.context, memory };
  const refused: Array<[Record<string, unknown>, RegExp]> = [
    [{ action: "save" }, /content: required by save/],
    [{ action: "save", content: "x", query: "y" }, /query: not taken by save/],
    [{ action: "search", query: "tea", memoryId: MEMORY }, /memoryId: not taken by search/],
    [{ action: "update", memoryId: MEMORY }, /content: required by update/],
    [{ action: "forget", memoryId: MEMORY, content: "x" }, /content: not taken by forget/],
    [{ action: "forget", memoryId: "memory_1" }, /memoryId: /],
    [{ action: "remember", content: "x" }, /action: /],
    [{ action: "save", content: "x", colour: "red" }, /colour/],
    [{ action: "save", content: "   " }, /content: /],
  ];
  for (const [args, message] of refused) {
    const result = await executeTool(memoryTool, args, context);
    assert.equal(result.errorCode, "invalid_arguments", JSON.stringify(args));
    assert.match(result.content, message, JSON.stringify(args));
  }
  assert.deepEqual(calls, [], "no refused call reached memory");
  const saved = await executeTool(memoryTool, { action: "save", content: " tea " }, context);
  assert.equal(saved.content, `Saved ${MEMORY}`);
  const found = await executeTool(memoryTool, { action: "search", query: "tea" }, context);
  assert.equal(found.content, `${MEMORY} r1 [fact] tea`);
  const forgot = await executeTool(memoryTool, { action: "forget", memoryId: MEMORY }, context);
  assert.equal(forgot.content, `Forgot ${MEMORY} (revision 2)`);
  assert.deepEqual(calls, [
    { save: { kind: "fact", scope: "global", content: "tea", clientRequestId: "tool:item-1" } },
    { search: "tea", limit: 5 },
    { forget: { memoryId: MEMORY, clientRequestId: "tool:item-1" } },
  ]);
  const secret = await executeTool(
    memoryTool,
    { action: "save", content: "key sk-secret-value-123" },
    context,
  );
  assert.equal(secret.errorCode, "protected_value");
  assert.equal(calls.length, 3, "a credential is never saved");
});

Deno.test("memory works in every permission mode", async () => {
  for (const executionPolicy of ["read_only", "workspace_write"] as const) {
    await using ws = await createTestWorkspace({ executionPolicy });
    const { memory } = recordingMemory();
    const result = await executeTool(memoryTool, { action: "search", query: "tea" }, {
      ...ws.context,
      memory,
    });
    assert.equal(result.isError, undefined, `${executionPolicy}: ${result.content}`);
  }
});

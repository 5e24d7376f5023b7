/**
 * The process tools through the one wrapper over a real {@linkcode ProcessManager} and a
 * real command: a result carrying a credential is withheld as a file tool's is (here the
 * manager masks nothing, so the wrapper is the wall), refusals outside full_access, timing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import { ProcessManager } from "./process_manager.ts";
import type { ProcessOperations } from "./process_operations.ts";
import { processStartTool } from "./process_start.ts";
import { processWaitTool } from "./process_wait.ts";
import { processReadTool } from "./process_read.ts";

const KEY = "sk-canary-1a2b3c4d5e6f7788";
const THREAD = `thread_${"e".repeat(32)}`;

/** The manager's operations for one thread and run (the runtime adds the ownership check). */
function operationsOf(manager: ProcessManager): ProcessOperations {
  return {
    start: (request) => manager.start({ ...request, threadId: THREAD, runId: "run_1" }),
    read: (processId, cursor) => manager.read(processId, cursor),
    wait: (processId, timeoutMs, signal) => manager.wait(processId, timeoutMs, signal),
    stop: (processId) => manager.stop(processId),
    write: (processId, data) => manager.write(processId, data),
    resize: (processId, cols, rows) => manager.resize(processId, cols, rows),
  };
}

Deno.test("a command's output carrying a credential is withheld; each call is timed", async () => {
  await using ws = await createTestWorkspace({ threadId: THREAD, protectedValues: [KEY] });
  const manager = new ProcessManager({ processesRoot: join(ws.base, "processes") });
  try {
    const context = { ...ws.context, processes: operationsOf(manager) };
    await ws.write("key.txt", `${KEY}\n`);
    const started = await executeTool(processStartTool, { command: "cat key.txt" }, context);
    assert.equal(started.isError, undefined, started.content);
    assert.equal(typeof started.details?.durationMs, "number");
    const processId = String(started.details?.processId);
    const waited = await executeTool(processWaitTool, { processId, timeoutMs: 20_000 }, context);
    assert.deepEqual([waited.errorCode, waited.content], [
      "protected_value",
      "The process_wait result contained a configured credential and was withheld",
    ]);
    assert.ok(!JSON.stringify(waited).includes(KEY));
    const read = await executeTool(processReadTool, { processId }, context);
    assert.equal(read.errorCode, "protected_value", "every page of it too");
  } finally {
    await manager.close();
  }
});

Deno.test("outside full_access no process tool runs, and none starts a command", async () => {
  for (const executionPolicy of ["read_only", "workspace_write"] as const) {
    await using ws = await createTestWorkspace({ threadId: THREAD, executionPolicy });
    const manager = new ProcessManager({ processesRoot: join(ws.base, "processes") });
    try {
      const context = { ...ws.context, processes: operationsOf(manager) };
      const result = await executeTool(processStartTool, { command: "touch ran" }, context);
      assert.deepEqual([result.errorCode, result.content], [
        "permission_denied",
        `permission_denied: process tools need full_access; this run is ${executionPolicy}`,
      ]);
      assert.deepEqual(manager.records(), [], "nothing was started");
    } finally {
      await manager.close();
    }
  }
});

/**
 * The process operations of one Run: the runtime's {@linkcode ProcessManager} scoped to
 * the Run's thread (a process of another thread is "not found", so a model can never
 * reach it).
 *
 * @module
 */
import { type ProcessManager, type ProcessOperations, ToolError } from "@daedalus/tools";
import { coded } from "./_coded.ts";

/**
 * The process operations of a Run.
 *
 * @param manager the runtime's process manager
 * @param run the Run's thread and id
 * @returns the operations
 */
export function createProcessOperations(
  manager: ProcessManager,
  run: { threadId: string; runId: string },
): ProcessOperations {
  const owned = (processId: string) => {
    const record = manager.record(processId);
    if (!record || record.threadId !== run.threadId) {
      throw new ToolError(
        "process_not_found",
        `process_not_found: No process ${processId} in this thread`,
      );
    }
  };
  return {
    start: coded((request) =>
      manager.start({
        threadId: run.threadId,
        runId: run.runId,
        itemId: request.itemId,
        command: request.command,
        cwd: request.cwd,
        background: request.background,
        pty: request.pty,
        supervise: request.supervise,
      })
    ),
    read: coded(async (processId, cursor) => {
      owned(processId);
      return await manager.read(processId, cursor);
    }),
    wait: coded(async (processId, timeoutMs, signal) => {
      owned(processId);
      const { timedOut } = await manager.wait(processId, timeoutMs, signal);
      return { timedOut };
    }),
    stop: coded(async (processId) => {
      owned(processId);
      return await manager.stop(processId);
    }),
    write: coded(async (processId, data) => {
      owned(processId);
      await manager.write(processId, data);
    }),
    resize: coded(async (processId, cols, rows) => {
      owned(processId);
      await manager.resize(processId, cols, rows);
    }),
  };
}

/**
 * `process.read` and `process.stop`: the live process when the manager knows it,
 * else (after a restart) the last recorded facts with state `unknown`.
 *
 * @module
 */
import type { ProcessOutputPage, ProcessRecord, ResultOf, ValidParamsOf } from "@daedalus/protocol";
import { RPC_ERROR_CODES, RpcError } from "@daedalus/protocol";
import { readProcessRecord, type StateStore } from "@daedalus/storage";
import type { ProcessManager } from "@daedalus/tools";
import type { Handled } from "./services.ts";

/** The `process.*` handlers. */
export type ProcessHandlers = {
  [M in "process.read" | "process.stop"]: (
    params: ValidParamsOf<M>,
  ) => Promise<Handled<ResultOf<M>>>;
};

/**
 * Builds the handlers.
 *
 * @param deps store and manager
 * @returns the handlers
 */
export function createProcessHandlers(
  deps: { store: StateStore; manager: ProcessManager },
): ProcessHandlers {
  const known = (threadId: string, processId: string) => {
    const live = deps.manager.record(processId);
    const record = live ?? deps.store.read((db) => readProcessRecord(db, processId));
    if (!record || record.threadId !== threadId) {
      throw new RpcError(
        RPC_ERROR_CODES.invalidParams,
        "process_not_found",
        `Process ${processId} is not a process of thread ${threadId}`,
        { field: "processId" },
      );
    }
    return { live: live !== undefined, record };
  };
  return {
    "process.read": async (params) => {
      const { live, record } = known(params.threadId, params.processId);
      if (live) {
        return {
          result: await deps.manager.read(params.processId, params.cursor ?? 0, params.limit),
        };
      }
      return { result: fallbackPage(record, params.cursor ?? 0) };
    },
    "process.stop": async (params) => {
      const { live, record } = known(params.threadId, params.processId);
      if (!live) return { result: fallbackPage(record, 0) };
      await deps.manager.stop(params.processId);
      return { result: await deps.manager.read(params.processId, 0, 1) };
    },
  };
}

/** A page built from recorded facts: the process is not followed by this runtime. */
function fallbackPage(record: ProcessRecord, cursor: number): ProcessOutputPage {
  const state = record.state === "running" ? "unknown" : record.state;
  return {
    processId: record.processId,
    state,
    exitCode: record.exitCode,
    cwd: record.cwd,
    pid: record.pid,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    output: "",
    truncated: false,
    errorCode: state === "unknown" ? record.errorCode ?? "runtime_interrupted" : record.errorCode,
    cursor,
    nextCursor: cursor,
    hasMore: false,
  };
}

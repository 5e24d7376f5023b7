/**
 * `run.submit_tool_result`: a caller hands a waiting Run the result of a client-side
 * tool call (a tool it offered in `turn.start` `clientTools`, which the runtime cannot
 * run). The last result of the step turns the Run `running` in the same transaction,
 * and the scheduler resumes it from the journal.
 *
 * @module
 */
import type { ResultOf, ValidParamsOf } from "@daedalus/protocol";
import { type StateStore, submitClientToolResult } from "@daedalus/storage";
import type { Scheduler } from "../scheduler/scheduler.ts";
import type { Handled } from "./services.ts";

/** The client-tool methods' handlers. */
export type ClientToolHandlers = {
  [M in "run.submit_tool_result"]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

/** What the handlers need. */
export interface ClientToolHandlerDeps {
  /** The state store. */
  store: StateStore;
  /** Resumes a Run whose last client call got its result. */
  scheduler: Pick<Scheduler, "resume">;
  /** Refuses params carrying a configured credential (the result is stored and sent). */
  protectedValues: { assertSafe(value: unknown, field: string): void };
}

/**
 * Builds the handlers.
 *
 * @param deps store, scheduler, protected values
 * @returns the handlers
 */
export function createClientToolHandlers(deps: ClientToolHandlerDeps): ClientToolHandlers {
  return {
    "run.submit_tool_result": (params) => {
      deps.protectedValues.assertSafe(params.content, "content");
      const committed = submitClientToolResult(deps.store, {
        runId: params.runId,
        toolCallItemId: params.toolCallItemId,
        content: params.content,
        ...(params.isError !== undefined ? { isError: params.isError } : {}),
      });
      const { resumed, pending, threadId } = committed.result;
      return Promise.resolve({
        result: {
          runId: params.runId,
          toolCallItemId: params.toolCallItemId,
          resumed,
          pendingToolCallItemIds: pending,
        },
        ...(resumed ? { afterResponse: () => deps.scheduler.resume(params.runId, threadId) } : {}),
      });
    },
  };
}

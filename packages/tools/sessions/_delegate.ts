import type { ToolResult } from "../tool.ts";
import type { DelegatedRun, SessionOperations } from "./session_operations.ts";

/**
 * Runs a delegated Run to its end and reports its answer, or queues it and says how to
 * collect the answer later.
 */
export async function finishDelegation(
  sessions: SessionOperations,
  run: DelegatedRun,
  wait: boolean,
  signal: AbortSignal,
): Promise<ToolResult> {
  const { threadId, turnId, runId } = run;
  if (!wait) {
    sessions.queueRun(run, signal);
    return {
      content:
        `Started run ${runId} in thread ${threadId}; read its result later with thread_read.`,
      details: { threadId, turnId, runId, status: "queued" },
    };
  }
  const { status, answer } = await sessions.waitForRun(run, signal);
  return {
    content: status === "completed"
      ? answer || "(the run completed without text)"
      : `The run ended ${status}. ${answer ? `Partial text:\n${answer}` : ""}`,
    isError: status !== "completed",
    details: { threadId, turnId, runId, status },
  };
}

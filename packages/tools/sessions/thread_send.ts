/**
 * The `thread_send` tool: a message into another conversation, starting a Run there (at
 * most {@linkcode THREAD_SEND_MAX_HOPS} hops of such messages in a chain). With `wait`,
 * that Run runs inline on the caller's worker; otherwise it is queued.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { THREAD_SEND_MAX_HOPS } from "../limits.ts";
import { codedError } from "../_coded_error.ts";
import { sessionsOf, ThreadRef } from "./_sessions.ts";
import { finishDelegation } from "./_delegate.ts";
import description from "./thread_send.md" with { type: "text" };

/** Parameters of {@linkcode threadSendTool}. */
export interface ThreadSendParams {
  /** The other thread. */
  threadId: string;
  /** The message. */
  content: string;
  /** Wait for its answer (default false). */
  wait?: boolean;
}

/** The schema of {@linkcode ThreadSendParams}. */
export const ThreadSendParams: ToolParams<ThreadSendParams> = z.strictObject({
  threadId: ThreadRef,
  content: z.string().min(1).max(100_000),
  wait: z.boolean().optional(),
});

/** Sends a message to another thread. */
export const threadSendTool: ToolDefinition<ThreadSendParams> = defineTool({
  id: "thread_send",
  description: description.trimEnd(),
  params: ThreadSendParams,
  mutating: true,
  risk: "session",
  run: async (params, context) => {
    const sessions = sessionsOf(context);
    if (params.threadId === context.threadId) {
      throw codedError("invalid_arguments", "Cannot send to this same thread");
    }
    const thread = sessions.getThread(params.threadId);
    if (thread.archivedAt !== null) {
      throw codedError("thread_archived", `Thread ${thread.id} is archived`);
    }
    if (sessions.isThreadBusy(thread.id) || sessions.hasActiveRun(thread.id)) {
      throw codedError("thread_busy", `Thread ${thread.id} has an active run`);
    }
    const hops = sessions.callerHops + 1;
    if (hops > THREAD_SEND_MAX_HOPS) {
      throw codedError(
        "thread_hop_limit",
        `A cross-thread chain may not exceed ${THREAD_SEND_MAX_HOPS} hops`,
      );
    }
    const run = await sessions.startRun({
      threadId: thread.id,
      content: `[Cross-session message from thread ${context.threadId}]\n${params.content}`,
      clientRequestId: `thread_send:${context.itemId}`,
      itemData: {
        threadSend: { fromThreadId: context.threadId, fromRunId: context.runId, hops },
      },
      runConfig: {},
    });
    return await finishDelegation(sessions, run, params.wait ?? false, context.signal);
  },
});

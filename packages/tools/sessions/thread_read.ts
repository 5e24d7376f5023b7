/**
 * The `thread_read` tool: another conversation, bounded, with a note when a Run there is
 * still active (how a non-blocking sub-agent's answer is collected).
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { ItemRef, readSlice, sessionsOf, ThreadRef } from "./_sessions.ts";
import description from "./thread_read.md" with { type: "text" };

/** Parameters of {@linkcode threadReadTool}. */
export interface ThreadReadParams {
  /** The thread. */
  threadId: string;
  /** The item to centre on (absent: the newest). */
  itemId?: string;
}

/** The schema of {@linkcode ThreadReadParams}. */
export const ThreadReadParams: ToolParams<ThreadReadParams> = z.strictObject({
  threadId: ThreadRef,
  itemId: ItemRef.optional(),
});

/** Reads another thread. */
export const threadReadTool: ToolDefinition<ThreadReadParams> = defineTool({
  id: "thread_read",
  description: description.trimEnd(),
  params: ThreadReadParams,
  mutating: false,
  risk: "read",
  run: (params, context) => {
    const sessions = sessionsOf(context);
    sessions.getThread(params.threadId);
    const result = readSlice(sessions, params.threadId, params.itemId);
    if (!sessions.isThreadBusy(params.threadId)) return Promise.resolve(result);
    return Promise.resolve({
      content: result.content +
        "\n(A run of this thread is still active: read it again later for its result.)",
      details: { ...result.details, activeRun: true },
    });
  },
});

/**
 * The `thread_create` tool: a new conversation with its own workspace folder. The
 * idempotency key comes from the tool-call item, so a replayed call cannot create twice.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { sessionsOf, Title } from "./_sessions.ts";
import description from "./thread_create.md" with { type: "text" };

/** Parameters of {@linkcode threadCreateTool}. */
export interface ThreadCreateParams {
  /** Its title. */
  title?: string;
}

/** The schema of {@linkcode ThreadCreateParams}. */
export const ThreadCreateParams: ToolParams<ThreadCreateParams> = z.strictObject({
  title: Title.optional(),
});

/** Creates a thread. */
export const threadCreateTool: ToolDefinition<ThreadCreateParams> = defineTool({
  id: "thread_create",
  description: description.trimEnd(),
  params: ThreadCreateParams,
  mutating: true,
  risk: "session",
  run: async (params, context) => {
    const thread = await sessionsOf(context).createThread({
      title: params.title ?? null,
      clientRequestId: `tool:${context.itemId}`,
    });
    return { content: `Created thread ${thread.id}`, details: { threadId: thread.id } };
  },
});

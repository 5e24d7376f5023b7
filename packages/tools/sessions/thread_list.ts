/**
 * The `thread_list` tool: the conversation catalog, newest first.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { sessionsOf } from "./_sessions.ts";
import description from "./thread_list.md" with { type: "text" };

/** Parameters of {@linkcode threadListTool}. */
export interface ThreadListParams {
  /** Archived threads instead of active ones. */
  archived?: boolean;
  /** How many (1–50, default 20). */
  limit?: number;
}

/** The schema of {@linkcode ThreadListParams}. */
export const ThreadListParams: ToolParams<ThreadListParams> = z.strictObject({
  archived: z.boolean().optional(),
  limit: z.int().min(1).max(50).optional(),
});

/** Lists threads. */
export const threadListTool: ToolDefinition<ThreadListParams> = defineTool({
  id: "thread_list",
  description: description.trimEnd(),
  params: ThreadListParams,
  mutating: false,
  risk: "read",
  run: (params, context) => {
    const page = sessionsOf(context).listThreads({
      archived: params.archived ?? false,
      limit: params.limit ?? 20,
    });
    const lines = page.threads.map((t) =>
      `${t.id} ${JSON.stringify(t.title ?? "(untitled)")} updated ${t.updatedAt}`
    );
    return Promise.resolve({
      content: lines.join("\n") || "(no threads)",
      details: { count: lines.length, hasMore: page.hasMore },
    });
  },
});

/**
 * The `thread_archive` tool: archive or unarchive a conversation.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { sessionsOf, ThreadRef } from "./_sessions.ts";
import description from "./thread_archive.md" with { type: "text" };

/** Parameters of {@linkcode threadArchiveTool}. */
export interface ThreadArchiveParams {
  /** The thread. */
  threadId: string;
  /** Archive (true) or unarchive (false). */
  archived: boolean;
}

/** The schema of {@linkcode ThreadArchiveParams}. */
export const ThreadArchiveParams: ToolParams<ThreadArchiveParams> = z.strictObject({
  threadId: ThreadRef,
  archived: z.boolean(),
});

/** Archives or unarchives a thread. */
export const threadArchiveTool: ToolDefinition<ThreadArchiveParams> = defineTool({
  id: "thread_archive",
  description: description.trimEnd(),
  params: ThreadArchiveParams,
  mutating: true,
  risk: "session",
  run: (params, context) => {
    const changed = sessionsOf(context).setThreadArchived(params.threadId, params.archived);
    return Promise.resolve({
      content: `Thread ${params.threadId} is ${params.archived ? "archived" : "active"}`,
      details: { changed: changed.changed },
    });
  },
});

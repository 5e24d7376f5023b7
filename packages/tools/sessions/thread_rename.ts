/**
 * The `thread_rename` tool.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { sessionsOf, ThreadRef, Title } from "./_sessions.ts";
import description from "./thread_rename.md" with { type: "text" };

/** Parameters of {@linkcode threadRenameTool}. */
export interface ThreadRenameParams {
  /** The thread. */
  threadId: string;
  /** Its new title. */
  title: string;
}

/** The schema of {@linkcode ThreadRenameParams}. */
export const ThreadRenameParams: ToolParams<ThreadRenameParams> = z.strictObject({
  threadId: ThreadRef,
  title: Title,
});

/** Renames a thread. */
export const threadRenameTool: ToolDefinition<ThreadRenameParams> = defineTool({
  id: "thread_rename",
  description: description.trimEnd(),
  params: ThreadRenameParams,
  mutating: true,
  risk: "session",
  run: (params, context) => {
    const renamed = sessionsOf(context).renameThread(params.threadId, params.title);
    return Promise.resolve({
      content: `Renamed thread ${params.threadId}`,
      details: { changed: renamed.changed },
    });
  },
});

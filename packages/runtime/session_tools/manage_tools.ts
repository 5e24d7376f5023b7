/**
 * Session-changing tools that share the RPC's services: `thread_create`,
 * `thread_rename`, `thread_archive`. The clientRequestId comes from the tool-call
 * item, so a replayed call cannot create twice.
 *
 * @module
 */
import { z } from "zod";
import { createThread, renameThread, setThreadArchived } from "@daedalus/storage";
import type { LoopTool } from "../loop/tools.ts";
import { fullAccessRefusal, sessionTool, type SessionToolDeps } from "./_session.ts";

const ThreadRef = z.string().regex(/^thread_[0-9a-f]{32}$/);
const Title = z.string().trim().min(1).max(200).regex(/^[^\r\n]*$/);

/**
 * The thread-managing tools.
 *
 * @param deps store and publisher
 * @returns thread_create, thread_rename, thread_archive
 */
export function createManageTools(deps: SessionToolDeps): LoopTool[] {
  return [
    sessionTool({
      name: "thread_create",
      description: "Create a conversation with its own workspace folder.",
      params: z.strictObject({ title: Title.optional() }),
      mutating: true,
      run: async (params, context) => {
        const refusal = fullAccessRefusal(deps.store, context.runId, "thread_create");
        if (refusal) return Promise.resolve(refusal);
        const created = await createThread(deps.store, {
          title: params.title ?? null,
          clientRequestId: `tool:${context.itemId}`,
          workspacesRoot: deps.workspacesRoot,
        });
        deps.publish(created.events);
        const thread = created.result.thread;
        return { content: `Created thread ${thread.id}`, details: { threadId: thread.id } };
      },
    }),
    sessionTool({
      name: "thread_rename",
      description: "Rename a conversation.",
      params: z.strictObject({ threadId: ThreadRef, title: Title }),
      mutating: true,
      run: (params, context) => {
        const refusal = fullAccessRefusal(deps.store, context.runId, "thread_rename");
        if (refusal) return Promise.resolve(refusal);
        const renamed = renameThread(deps.store, params.threadId, params.title, "user");
        deps.publish(renamed.events);
        return Promise.resolve({
          content: `Renamed thread ${params.threadId}`,
          details: { changed: renamed.result.changed },
        });
      },
    }),
    sessionTool({
      name: "thread_archive",
      description: "Archive or unarchive a conversation.",
      params: z.strictObject({ threadId: ThreadRef, archived: z.boolean() }),
      mutating: true,
      run: (params, context) => {
        const refusal = fullAccessRefusal(deps.store, context.runId, "thread_archive");
        if (refusal) return Promise.resolve(refusal);
        const changed = setThreadArchived(deps.store, params.threadId, params.archived);
        deps.publish(changed.events);
        return Promise.resolve({
          content: `Thread ${params.threadId} is ${params.archived ? "archived" : "active"}`,
          details: { changed: changed.result.changed },
        });
      },
    }),
  ];
}

/**
 * Read-only session tools: `history_read` (this thread, around an item),
 * `thread_list` (the catalog), `thread_read` (another thread, bounded).
 *
 * @module
 */
import { z } from "zod";
import { getThread, listThreads, readThreadSlice } from "@daedalus/storage";
import type { LoopTool } from "../loop/tools.ts";
import {
  formatItems,
  SESSION_READ_MAX_ITEMS,
  sessionTool,
  type SessionToolDeps,
  toolError,
} from "./_session.ts";

const ItemRef = z.string().regex(/^item_[0-9a-f]{32}$/);
const ThreadRef = z.string().regex(/^thread_[0-9a-f]{32}$/);

/**
 * The read-only session tools.
 *
 * @param deps store and scheduler
 * @returns history_read, thread_list, thread_read
 */
export function createReadTools(deps: SessionToolDeps): LoopTool[] {
  const slice = (threadId: string, itemId?: string) => {
    const result = deps.store.read((db) =>
      readThreadSlice(db, { threadId, anchorItemId: itemId, maxItems: SESSION_READ_MAX_ITEMS })
    );
    if (!result.anchorFound) {
      return toolError("item_not_found", `Item ${itemId} is not in thread ${threadId}`);
    }
    const { text, truncated } = formatItems(result.items);
    return {
      content: text || "(no items)",
      details: {
        items: result.items.length,
        hasBefore: result.hasBefore,
        hasAfter: result.hasAfter,
        truncated,
      },
    };
  };
  return [
    sessionTool({
      name: "history_read",
      description: "Read items of this conversation missing from your context: up to 41 " +
        "around `itemId`, or the newest.",
      params: z.strictObject({ itemId: ItemRef.optional() }),
      mutating: false,
      run: (params, context) => Promise.resolve(slice(context.threadId, params.itemId)),
    }),
    sessionTool({
      name: "thread_list",
      description: "List conversations, newest first.",
      params: z.strictObject({
        archived: z.boolean().optional(),
        limit: z.int().min(1).max(50).optional(),
      }),
      mutating: false,
      run: (params) => {
        const page = deps.store.read((db) =>
          listThreads(db, { archived: params.archived ?? false, limit: params.limit ?? 20 })
        );
        const lines = page.threads.map((t) =>
          `${t.id} ${JSON.stringify(t.title ?? "(untitled)")} updated ${t.updatedAt}`
        );
        return Promise.resolve({
          content: lines.join("\n") || "(no threads)",
          details: { count: lines.length, hasMore: page.hasMore },
        });
      },
    }),
    sessionTool({
      name: "thread_read",
      description: "Read another conversation: up to 41 items around `itemId`, or the newest. " +
        "Says if a run there is still active.",
      params: z.strictObject({ threadId: ThreadRef, itemId: ItemRef.optional() }),
      mutating: false,
      run: (params) => {
        deps.store.read((db) => getThread(db, params.threadId));
        const result = slice(params.threadId, params.itemId);
        if (deps.scheduler.isThreadBusy(params.threadId) && !result.isError) {
          result.content +=
            "\n(A run of this thread is still active: read it again later for its result.)";
          result.details = { ...result.details, activeRun: true };
        }
        return Promise.resolve(result);
      },
    }),
  ];
}

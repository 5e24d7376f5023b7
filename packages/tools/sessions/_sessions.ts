import { z } from "zod";
import type { Item } from "@daedalus/protocol";
import { type ToolContext, ToolError, type ToolResult } from "../tool.ts";
import { SESSION_READ_MAX_CHARS, SESSION_READ_MAX_ITEMS } from "../limits.ts";
import { codedError } from "../_coded_error.ts";
import type { SessionOperations } from "./session_operations.ts";

/** An item id as the model passes it. */
export const ItemRef = z.string().regex(/^item_[0-9a-f]{32}$/);
/** A thread id as the model passes it. */
export const ThreadRef = z.string().regex(/^thread_[0-9a-f]{32}$/);
/** A thread title: one line. */
export const Title = z.string().trim().min(1).max(200).regex(/^[^\r\n]*$/);

/** The context's session operations; a context without them cannot run a session tool. */
export function sessionsOf(context: ToolContext): SessionOperations {
  if (context.sessions) return context.sessions;
  throw new ToolError("tool_unavailable", "Session operations are not available here");
}

/** Up to 41 items of a thread around `itemId` (or the newest), formatted for the model. */
export function readSlice(
  sessions: SessionOperations,
  threadId: string,
  itemId: string | undefined,
): ToolResult {
  const result = sessions.readSlice(threadId, itemId, SESSION_READ_MAX_ITEMS);
  if (!result.anchorFound) {
    throw codedError("item_not_found", `Item ${itemId} is not in thread ${threadId}`);
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
}

/**
 * Formats items for the model: one header line each, content cut so the whole text
 * stays within {@linkcode SESSION_READ_MAX_CHARS}.
 */
export function formatItems(items: readonly Item[]): { text: string; truncated: boolean } {
  const lines: string[] = [];
  let used = 0;
  let truncated = false;
  for (const item of items) {
    const header = `[${item.id} ${item.kind}${item.role ? ` ${item.role}` : ""} ${item.status}]`;
    const body = item.kind === "tool_call"
      ? `${String(item.data.toolId ?? "")} ${JSON.stringify(item.data.arguments ?? {})}`
      : item.content;
    let entry = `${header} ${body}`;
    const room = SESSION_READ_MAX_CHARS - used;
    if (entry.length > room) {
      entry = entry.slice(0, Math.max(0, room - 20)) + " …[cut]";
      truncated = true;
    }
    lines.push(entry);
    used += entry.length + 1;
    if (used >= SESSION_READ_MAX_CHARS) {
      truncated = true;
      break;
    }
  }
  return { text: lines.join("\n"), truncated };
}

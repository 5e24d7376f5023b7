/**
 * What an incoming update is to the channel: a private text message (a command or a turn),
 * or something to skip (edited messages, stickers, group chats, channel posts, malformed
 * updates). Skipped updates are still acknowledged by the poller so they never repeat.
 *
 * @module
 */
import type { TelegramUpdate } from "./bot_api.ts";

/** A private text message from a user. */
export interface IncomingText {
  /** `text`. */
  kind: "text";
  /** The update id. */
  updateId: number;
  /** The private chat. */
  chatId: string;
  /** The sender. */
  userId: string;
  /** The sender's @username, if any. */
  username: string | null;
  /** The text. */
  text: string;
}

/** An update the channel does not act on, and why (for the log line). */
export interface SkippedUpdate {
  /** `skip`. */
  kind: "skip";
  /** The update id. */
  updateId: number;
  /** Why it is skipped. */
  reason: string;
}

/**
 * Reads one update.
 *
 * @param update the raw update
 * @returns a private text message, or why it is skipped
 */
export function readUpdate(update: TelegramUpdate): IncomingText | SkippedUpdate {
  const skip = (reason: string): SkippedUpdate => ({
    kind: "skip",
    updateId: update.update_id,
    reason,
  });
  const message = update.message;
  if (message === undefined) {
    const other = Object.keys(update).find((key) => key !== "update_id") ?? "nothing";
    return skip(`unsupported update type ${other}`);
  }
  if (typeof message !== "object" || message === null) return skip("malformed message");
  const { chat, from, text } = message as Record<string, unknown>;
  if (typeof chat !== "object" || chat === null) return skip("message without a chat");
  const { id: chatId, type } = chat as Record<string, unknown>;
  if (type !== "private") return skip(`message in a ${String(type)} chat`);
  if (typeof from !== "object" || from === null) return skip("message without a sender");
  const { id: userId, username, is_bot: isBot } = from as Record<string, unknown>;
  if (isBot === true) return skip("message from a bot");
  if (!Number.isSafeInteger(chatId) || !Number.isSafeInteger(userId)) return skip("malformed ids");
  if (typeof text !== "string" || text.trim() === "") return skip("message without text");
  return {
    kind: "text",
    updateId: update.update_id,
    chatId: String(chatId),
    userId: String(userId),
    username: typeof username === "string" ? username : null,
    text,
  };
}

/** A bot command: `/name` (a `@botname` suffix dropped) and its argument text. */
export interface BotCommand {
  /** The command without the slash, lowercased. */
  name: string;
  /** The rest of the line, trimmed. */
  argument: string;
}

/**
 * Reads a command from message text.
 *
 * @param text the message text
 * @returns the command, or null when the text is not one
 */
export function readCommand(text: string): BotCommand | null {
  const match = text.trim().match(/^\/([A-Za-z0-9_]{1,32})(?:@[A-Za-z0-9_]+)?(?:\s+([\s\S]*))?$/);
  if (match === null) return null;
  return { name: match[1].toLowerCase(), argument: (match[2] ?? "").trim() };
}

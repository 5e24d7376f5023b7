/**
 * channels.db (schema 1) on its own connection: WAL, `synchronous=NORMAL`; the owner
 * binding of each bot account, the getUpdates cursor, and the outbox that delivers each
 * Run's final reply once (the unique partial index `channel_outbox_run_idx`).
 *
 * @example
 * ```ts ignore
 * const channels = ChannelStore.open(`${home}/channels.db`);
 * channels.enqueueReply({ channelId: "telegram", accountId: "1", chatId: "9", runId, text });
 * channels.close();
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { DatabaseSync, type SQLOutputValue } from "node:sqlite";
import { ChannelsDatabaseError } from "./errors.ts";
import {
  CHANNELS_BUSY_TIMEOUT_MS,
  CHANNELS_SCHEMA_VERSION,
  OUTBOX_ERROR_MAX_CHARS,
} from "./limits.ts";
import { CHANNELS_SCHEMA_OBJECTS, createChannelsSchema } from "./schema.ts";

type Row = Record<string, SQLOutputValue>;

/** The owner a bot account is bound to, and the thread it talks on. */
export interface ChannelBinding {
  /** The channel (`telegram`). */
  channelId: string;
  /** The bot account (Telegram: the bot's user id). */
  accountId: string;
  /** The owner's private chat. */
  chatId: string;
  /** The bound thread. */
  threadId: string;
  /** The bound thread's branch. */
  branchId: string;
  /** The owner's user id. */
  ownerUserId: string | null;
  /** The owner's @username, when they have one. */
  ownerUsername: string | null;
  /** When the binding was made (ISO 8601). */
  createdAt: string;
  /** When it last changed. */
  updatedAt: string;
}

/** Where an outbox row is. */
export type OutboxStatus = "pending" | "sending" | "sent" | "failed";

/** One reply waiting for, in, or done with delivery. */
export interface OutboxRow {
  /** The row id. */
  id: number;
  /** The channel. */
  channelId: string;
  /** The bot account. */
  accountId: string;
  /** The chat it goes to. */
  chatId: string;
  /** The Run whose final reply it is (null: a message not tied to a Run). */
  runId: string | null;
  /** The whole text; delivery splits it. */
  text: string;
  /** Delivery status. */
  status: OutboxStatus;
  /** Attempts made. */
  attempts: number;
  /** Pieces of the split text already accepted by the chat service. */
  partsSent: number;
  /** When the next attempt is due (ISO 8601), null: now. */
  nextAttemptAt: string | null;
  /** The last piece's message id, once sent. */
  telegramMessageId: number | null;
  /** Why the last attempt failed. */
  lastErrorCode: string | null;
  /** When it was enqueued. */
  createdAt: string;
  /** When it last changed. */
  updatedAt: string;
}

/** What {@linkcode ChannelStore.enqueue} takes. */
export interface OutboxEntry {
  /** The channel. */
  channelId: string;
  /** The bot account. */
  accountId: string;
  /** The chat. */
  chatId: string;
  /** The Run (a second entry for the same Run is ignored); null for other messages. */
  runId: string | null;
  /** The text. */
  text: string;
}

/**
 * The path of channels.db in a runtime home.
 *
 * @param home the runtime home
 * @returns `<home>/channels.db`
 */
export function channelsDbPath(home: string): string {
  return join(home, "channels.db");
}

/** channels.db: bindings, cursors and the outbox. All methods are synchronous. */
export class ChannelStore {
  /** The path it was opened from. */
  readonly path: string;
  readonly #db: DatabaseSync;
  readonly #now: () => Date;

  private constructor(path: string, db: DatabaseSync, now: () => Date) {
    this.path = path;
    this.#db = db;
    this.#now = now;
  }

  /**
   * Opens (and when empty, creates) channels.db.
   *
   * @param path the file, or `:memory:` in tests
   * @param options a clock for tests
   * @returns the store
   * @throws {ChannelsDatabaseError} `channels_db_incompatible` when the schema differs
   *   ("channels database schema is incompatible; reset required"), `channels_db_unreadable`
   *   when the file cannot be opened
   */
  static open(path: string, options: { now?: () => Date } = {}): ChannelStore {
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(path);
    } catch (error) {
      throw new ChannelsDatabaseError("channels_db_unreadable", path, `Cannot open ${path}`, {
        cause: error,
      });
    }
    try {
      db.exec(`PRAGMA busy_timeout = ${CHANNELS_BUSY_TIMEOUT_MS}`);
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      const version = Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);
      const objects = db.prepare(
        `SELECT name FROM sqlite_master WHERE substr(name, 1, 7) <> 'sqlite_' ORDER BY name`,
      ).all().map((row) => String(row.name));
      if (version === 0 && objects.length === 0) {
        db.exec("BEGIN IMMEDIATE");
        try {
          createChannelsSchema(db, CHANNELS_SCHEMA_VERSION);
          db.exec("COMMIT");
        } catch (error) {
          db.exec("ROLLBACK");
          throw error;
        }
      } else if (
        version !== CHANNELS_SCHEMA_VERSION ||
        objects.join(",") !== CHANNELS_SCHEMA_OBJECTS.join(",")
      ) {
        throw new ChannelsDatabaseError(
          "channels_db_incompatible",
          path,
          `channels database schema is incompatible; reset required (${path}: version ${version})`,
        );
      }
      return new ChannelStore(path, db, options.now ?? (() => new Date()));
    } catch (error) {
      db.close();
      if (error instanceof ChannelsDatabaseError) throw error;
      throw new ChannelsDatabaseError("channels_db_unreadable", path, `Cannot read ${path}`, {
        cause: error,
      });
    }
  }

  /**
   * The binding of a bot account (one owner per account).
   *
   * @param channelId the channel
   * @param accountId the bot account
   * @returns the binding, or null when nobody is bound
   */
  binding(channelId: string, accountId: string): ChannelBinding | null {
    const row = this.#db.prepare(
      `SELECT * FROM channel_bindings WHERE channel_id = ? AND account_id = ?
       ORDER BY created_at LIMIT 1`,
    ).get(channelId, accountId);
    return row === undefined ? null : bindingOf(row);
  }

  /**
   * Binds the owner of a bot account, unless one is already bound (the first one wins).
   *
   * @param binding the owner, chat and thread
   * @returns the binding now in force (the given one, or the earlier one)
   */
  bind(binding: Omit<ChannelBinding, "createdAt" | "updatedAt">): ChannelBinding {
    return this.#write(() => {
      const existing = this.binding(binding.channelId, binding.accountId);
      if (existing !== null) return existing;
      const now = this.#now().toISOString();
      this.#db.prepare(
        `INSERT INTO channel_bindings (channel_id, account_id, chat_id, thread_id, branch_id,
           owner_user_id, owner_username, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        binding.channelId,
        binding.accountId,
        binding.chatId,
        binding.threadId,
        binding.branchId,
        binding.ownerUserId,
        binding.ownerUsername,
        now,
        now,
      );
      return { ...binding, createdAt: now, updatedAt: now };
    });
  }

  /**
   * Points the binding at another thread (`/new`).
   *
   * @param channelId the channel
   * @param accountId the bot account
   * @param threadId the new thread
   * @param branchId its branch
   * @returns whether a binding was changed
   */
  rebindThread(channelId: string, accountId: string, threadId: string, branchId: string): boolean {
    const result = this.#db.prepare(
      `UPDATE channel_bindings SET thread_id = ?, branch_id = ?, updated_at = ?
       WHERE channel_id = ? AND account_id = ?`,
    ).run(threadId, branchId, this.#now().toISOString(), channelId, accountId);
    return Number(result.changes) > 0;
  }

  /**
   * Removes the binding: the next `/start` binds anew. Pending replies stay in the outbox.
   *
   * @param channelId the channel
   * @param accountId the bot account
   * @returns whether a binding existed
   */
  resetBinding(channelId: string, accountId: string): boolean {
    const result = this.#db.prepare(
      "DELETE FROM channel_bindings WHERE channel_id = ? AND account_id = ?",
    ).run(channelId, accountId);
    return Number(result.changes) > 0;
  }

  /**
   * The next update id to ask for (getUpdates `offset`); 0 when nothing was acknowledged.
   *
   * @param channelId the channel
   * @param accountId the bot account
   * @returns the cursor
   */
  cursor(channelId: string, accountId: string): number {
    const row = this.#db.prepare(
      "SELECT next_update_id FROM channel_cursors WHERE channel_id = ? AND account_id = ?",
    ).get(channelId, accountId);
    return row === undefined ? 0 : Number(row.next_update_id);
  }

  /**
   * Acknowledges every update below `nextUpdateId`; the cursor never moves back.
   *
   * @param channelId the channel
   * @param accountId the bot account
   * @param nextUpdateId the highest handled update id plus one
   */
  advanceCursor(channelId: string, accountId: string, nextUpdateId: number): void {
    if (!Number.isSafeInteger(nextUpdateId) || nextUpdateId < 0) {
      throw new RangeError(`Update cursor must be a non-negative integer, got ${nextUpdateId}`);
    }
    this.#db.prepare(
      `INSERT INTO channel_cursors (channel_id, account_id, next_update_id, updated_at)
       VALUES (?, ?, ?, ?)
       ON CONFLICT (channel_id, account_id) DO UPDATE SET
         next_update_id = max(next_update_id, excluded.next_update_id),
         updated_at = excluded.updated_at`,
    ).run(channelId, accountId, nextUpdateId, this.#now().toISOString());
  }

  /**
   * Adds a reply to the outbox. A Run's reply is enqueued once: a second call for the same
   * Run (after a restart, or a second settlement notice) changes nothing.
   *
   * @param entry the reply
   * @returns whether a row was added
   */
  enqueue(entry: OutboxEntry): boolean {
    const now = this.#now().toISOString();
    const result = this.#db.prepare(
      `INSERT INTO channel_outbox (channel_id, account_id, chat_id, run_id, text, status,
         created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)
       ON CONFLICT DO NOTHING`,
    ).run(entry.channelId, entry.accountId, entry.chatId, entry.runId, entry.text, now, now);
    return Number(result.changes) > 0;
  }

  /**
   * Whether a Run's reply is in the outbox (in any status).
   *
   * @param channelId the channel
   * @param accountId the bot account
   * @param runId the Run
   * @returns true when enqueued
   */
  hasReply(channelId: string, accountId: string, runId: string): boolean {
    return this.#db.prepare(
      "SELECT 1 FROM channel_outbox WHERE channel_id = ? AND account_id = ? AND run_id = ?",
    ).get(channelId, accountId, runId) !== undefined;
  }

  /**
   * Rows due for delivery: pending (or `sending` when a crash interrupted them) whose next
   * attempt time has come, oldest first.
   *
   * @param channelId the channel
   * @param accountId the bot account
   * @returns the rows
   */
  due(channelId: string, accountId: string): OutboxRow[] {
    return this.#db.prepare(
      `SELECT * FROM channel_outbox
       WHERE channel_id = ? AND account_id = ? AND status IN ('pending', 'sending')
         AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
       ORDER BY id`,
    ).all(channelId, accountId, this.#now().toISOString()).map(outboxOf);
  }

  /**
   * One outbox row.
   *
   * @param id the row id
   * @returns the row, or null
   */
  outboxRow(id: number): OutboxRow | null {
    const row = this.#db.prepare("SELECT * FROM channel_outbox WHERE id = ?").get(id);
    return row === undefined ? null : outboxOf(row);
  }

  /**
   * Every outbox row of an account, newest first (for status and tests).
   *
   * @param channelId the channel
   * @param accountId the bot account
   * @returns the rows
   */
  outbox(channelId: string, accountId: string): OutboxRow[] {
    return this.#db.prepare(
      "SELECT * FROM channel_outbox WHERE channel_id = ? AND account_id = ? ORDER BY id DESC",
    ).all(channelId, accountId).map(outboxOf);
  }

  /**
   * Records that an attempt started (`sending`, attempts + 1).
   *
   * @param id the row
   */
  markSending(id: number): void {
    this.#update(id, "status = 'sending', attempts = attempts + 1", []);
  }

  /**
   * Records one accepted piece; committed before the next piece is sent, so a restart
   * never sends it twice.
   *
   * @param id the row
   * @param partsSent pieces accepted so far
   * @param messageId the accepted piece's message id
   */
  markPartSent(id: number, partsSent: number, messageId: number): void {
    this.#update(id, "parts_sent = ?, telegram_message_id = ?", [partsSent, messageId]);
  }

  /**
   * Records the whole reply as delivered.
   *
   * @param id the row
   */
  markSent(id: number): void {
    this.#update(id, "status = 'sent', next_attempt_at = NULL", []);
  }

  /**
   * Records a failed attempt to be retried at `nextAttemptAt`.
   *
   * @param id the row
   * @param errorCode why it failed
   * @param nextAttemptAt when to try again
   */
  markRetry(id: number, errorCode: string, nextAttemptAt: Date): void {
    this.#update(id, "status = 'pending', last_error_code = ?, next_attempt_at = ?", [
      errorCode.slice(0, OUTBOX_ERROR_MAX_CHARS),
      nextAttemptAt.toISOString(),
    ]);
  }

  /**
   * Records a reply that will not be delivered (refused by the chat service, or out of
   * attempts).
   *
   * @param id the row
   * @param errorCode why
   */
  markFailed(id: number, errorCode: string): void {
    this.#update(id, "status = 'failed', last_error_code = ?, next_attempt_at = NULL", [
      errorCode.slice(0, OUTBOX_ERROR_MAX_CHARS),
    ]);
  }

  /** Closes the connection; a second call does nothing. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  #update(id: number, assignments: string, values: (string | number)[]): void {
    this.#db.prepare(`UPDATE channel_outbox SET ${assignments}, updated_at = ? WHERE id = ?`)
      .run(...values, this.#now().toISOString(), id);
  }

  #write<T>(fn: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      this.#db.exec("COMMIT");
      return result;
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }
}

function str(row: Row, column: string): string {
  return String(row[column]);
}

function optStr(row: Row, column: string): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : String(value);
}

function bindingOf(row: Row): ChannelBinding {
  return {
    channelId: str(row, "channel_id"),
    accountId: str(row, "account_id"),
    chatId: str(row, "chat_id"),
    threadId: str(row, "thread_id"),
    branchId: str(row, "branch_id"),
    ownerUserId: optStr(row, "owner_user_id"),
    ownerUsername: optStr(row, "owner_username"),
    createdAt: str(row, "created_at"),
    updatedAt: str(row, "updated_at"),
  };
}

function outboxOf(row: Row): OutboxRow {
  const messageId = row.telegram_message_id;
  return {
    id: Number(row.id),
    channelId: str(row, "channel_id"),
    accountId: str(row, "account_id"),
    chatId: str(row, "chat_id"),
    runId: optStr(row, "run_id"),
    text: str(row, "text"),
    status: str(row, "status") as OutboxStatus,
    attempts: Number(row.attempts),
    partsSent: Number(row.parts_sent),
    nextAttemptAt: optStr(row, "next_attempt_at"),
    telegramMessageId: messageId === null || messageId === undefined ? null : Number(messageId),
    lastErrorCode: optStr(row, "last_error_code"),
    createdAt: str(row, "created_at"),
    updatedAt: str(row, "updated_at"),
  };
}

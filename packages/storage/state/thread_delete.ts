/**
 * Deleting a thread (`thread.delete`): in one transaction every projection row of the
 * thread is removed, every journal row of the thread gets the fixed tombstone payload
 * (erased_payload.ts) and a `thread.deleted` event records that it happened. The rows
 * keep their envelope and `payload_hash`, so the hash chain still links; the verifier
 * accepts the tombstone only where a later `thread.deleted` names the row's thread.
 *
 * The transaction runs with `PRAGMA secure_delete = ON` (this connection only), so the
 * pages and cells the erased text leaves behind are overwritten with zeros instead of
 * lingering as free space in the file; the WAL is checkpointed (TRUNCATE) afterwards so
 * its older frames go too.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { RunConfigPart } from "@daedalus/protocol";
import type { StateDatabase } from "./database.ts";
import type { Committed, StateStore } from "./store.ts";
import { StoreError } from "./errors.ts";
import { statement } from "../_statements.ts";
import { clearThreadIndex } from "./search_index.ts";
import { hasActiveRun, readThread } from "./thread_writes.ts";
import { ERASED_PAYLOAD_JSON } from "./erased_payload.ts";
import { forgetThreadTurnRuns } from "./reads/turn_runs_cache.ts";
import { isPartReferenced } from "./run_config_parts.ts";

/**
 * Removes one kind of per-thread state inside the deletion's transaction, before the
 * journal rows are tombstoned (the journal still holds the thread's events).
 */
export type ThreadEraser = (connection: DatabaseSync, threadId: string) => void;

/**
 * The statements that remove a thread's projection rows, children first (foreign keys
 * stay on; each child is removed by its own statement rather than by a cascade, so a
 * table added later without a cascade still fails loudly here instead of being kept).
 */
const PROJECTION_ERASE_STATEMENTS: readonly string[] = [
  "DELETE FROM approvals WHERE thread_id = ?1",
  `DELETE FROM file_changes WHERE tool_call_item_id IN
     (SELECT i.id FROM items i JOIN turns t ON t.id = i.turn_id WHERE t.thread_id = ?1)`,
  "DELETE FROM model_usages WHERE thread_id = ?1",
  `DELETE FROM model_calls WHERE run_id IN
     (SELECT r.id FROM runs r JOIN turns t ON t.id = r.turn_id WHERE t.thread_id = ?1)`,
  `DELETE FROM process_sessions WHERE run_id IN
     (SELECT r.id FROM runs r JOIN turns t ON t.id = r.turn_id WHERE t.thread_id = ?1)`,
  `DELETE FROM context_revisions WHERE run_id IN
     (SELECT r.id FROM runs r JOIN turns t ON t.id = r.turn_id WHERE t.thread_id = ?1)`,
  `DELETE FROM run_configs WHERE run_id IN
     (SELECT r.id FROM runs r JOIN turns t ON t.id = r.turn_id WHERE t.thread_id = ?1)`,
  "DELETE FROM items WHERE turn_id IN (SELECT id FROM turns WHERE thread_id = ?1)",
  "DELETE FROM runs WHERE turn_id IN (SELECT id FROM turns WHERE thread_id = ?1)",
  "DELETE FROM turns WHERE thread_id = ?1",
  "DELETE FROM branches WHERE thread_id = ?1",
  "DELETE FROM threads WHERE id = ?1",
];

/** Removes every projection row of the thread (run_config_parts: see below). */
export const eraseThreadProjections: ThreadEraser = (connection, threadId) => {
  for (const sql of PROJECTION_ERASE_STATEMENTS) statement(connection, sql).run(threadId);
};

/**
 * Every per-thread eraser, run in order inside the deletion's transaction. A module
 * that keeps more per-thread state in state.db adds its eraser here.
 */
export const THREAD_ERASERS: readonly ThreadEraser[] = [
  eraseThreadProjections,
  (connection, threadId) => void clearThreadIndex(connection, threadId),
];

/** What {@linkcode deleteThread} needs. */
export interface DeleteThreadInput {
  /** The thread. */
  threadId: string;
  /** Makes a retry return the first result. */
  clientRequestId: string;
  /**
   * Called inside the transaction, after the erasure and before the commit, with the
   * files the runtime must remove once it commits: it records them where a crash after
   * the commit still finds them (a failure here rolls the deletion back).
   */
  beforeCommit?: (files: ThreadDeletionFiles) => void;
}

/** The runtime's own files of a deleted thread that state.db knows of. */
export interface ThreadDeletionFiles {
  /** The thread. */
  threadId: string;
  /** Attachment files (absolute paths) only this thread's items referred to. */
  attachmentPaths: string[];
}

/** The result of {@linkcode deleteThread}. */
export interface DeleteThreadResult {
  /** The thread. */
  threadId: string;
  /** When it was deleted (the `thread.deleted` event's timestamp). */
  deletedAt: string;
  /** Journal rows whose payload was erased. */
  erasedEvents: number;
  /** False for a retry of a deletion that already happened (nothing was written). */
  deleted: boolean;
  /** The files to remove after the commit (empty for a retry). */
  files: ThreadDeletionFiles;
}

/**
 * Deletes a thread (archived or not). A retry with the same clientRequestId returns the
 * first result.
 *
 * @param store the state store
 * @param input the thread, the clientRequestId and the hook that records its files
 * @returns the result and its `thread.deleted` event
 * @throws {StoreError} `thread_not_found` (also for a thread deleted by another request),
 *   `thread_busy` while a Run of it is queued, running or waiting
 */
export function deleteThread(
  store: StateStore,
  input: DeleteThreadInput,
): Committed<DeleteThreadResult> {
  const { connection } = store.db;
  const before = statement(connection, "PRAGMA secure_delete").get();
  connection.exec("PRAGMA secure_delete = ON");
  let committed: Committed<DeleteThreadResult>;
  try {
    committed = store.write(({ db, now, append }) => {
      const replay = replayDeletion(db, input);
      if (replay !== null) return replay;
      readThread(db, input.threadId);
      if (hasActiveRun(db, input.threadId)) {
        throw new StoreError(
          "thread_busy",
          `Thread ${input.threadId} has a queued, running or waiting run; stop it before deleting`,
        );
      }
      const files: ThreadDeletionFiles = {
        threadId: input.threadId,
        attachmentPaths: onlyReferencedAttachments(db.connection, input.threadId),
      };
      const carried = carriedParts(db.connection, input.threadId);
      for (const erase of THREAD_ERASERS) erase(db.connection, input.threadId);
      const keptParts = carried.filter((part) => {
        if (isPartReferenced(db.connection, part.kind, part.hash)) return true;
        statement(db.connection, "DELETE FROM run_config_parts WHERE kind = ? AND hash = ?")
          .run(part.kind, part.hash);
        return false;
      });
      const erasedEvents = Number(
        statement(
          db.connection,
          "UPDATE events SET payload_json = ? WHERE thread_id = ? AND payload_json <> ?",
        ).run(ERASED_PAYLOAD_JSON, input.threadId, ERASED_PAYLOAD_JSON).changes,
      );
      append({
        type: "thread.deleted",
        threadId: input.threadId,
        payload: {
          threadId: input.threadId,
          deletedAt: now,
          erasedEvents,
          clientRequestId: input.clientRequestId,
          ...(keptParts.length > 0 ? { runConfigParts: keptParts } : {}),
        },
      });
      input.beforeCommit?.(files);
      return { threadId: input.threadId, deletedAt: now, erasedEvents, deleted: true, files };
    });
  } finally {
    const mode = Number(before?.secure_delete ?? 0);
    connection.exec(`PRAGMA secure_delete = ${mode === 2 ? "FAST" : mode}`);
  }
  if (committed.result.deleted) {
    // Nothing of the thread stays in memory either (its kept history).
    forgetThreadTurnRuns(connection, input.threadId);
    // Older WAL frames still hold the erased pages; a busy reader only makes it partial.
    try {
      connection.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch {
      // The next automatic checkpoint overwrites them; the deletion itself is committed.
    }
  }
  return committed;
}

/**
 * The deletion of this thread, when it happened: the first result again for the same
 * clientRequestId, `thread_not_found` for any other (the thread is gone). Looked up by
 * the thread's own rows (indexed), not by the clientRequestId across the journal (a scan:
 * 0.3–0.8 s on a 1,000,000-event journal), so the same clientRequestId sent for two
 * threads deletes both.
 */
function replayDeletion(db: StateDatabase, input: DeleteThreadInput): DeleteThreadResult | null {
  const row = statement(
    db.connection,
    `SELECT payload_json FROM events WHERE thread_id = ? AND event_type = 'thread.deleted'
     ORDER BY seq LIMIT 1`,
  ).get(input.threadId);
  if (row === undefined) return null;
  const payload = JSON.parse(String(row.payload_json)) as {
    deletedAt: string;
    erasedEvents: number;
    clientRequestId: string;
  };
  if (payload.clientRequestId !== input.clientRequestId) {
    throw new StoreError("thread_not_found", `Thread ${input.threadId} was deleted`);
  }
  return {
    threadId: input.threadId,
    deletedAt: payload.deletedAt,
    erasedEvents: payload.erasedEvents,
    deleted: false,
    files: { threadId: input.threadId, attachmentPaths: [] },
  };
}

/**
 * Attachment paths this thread's items refer to and no other thread's item does. The
 * other threads' items are read once, and only when this thread has attachments at all.
 */
function onlyReferencedAttachments(connection: DatabaseSync, threadId: string): string[] {
  const paths = (sql: string) =>
    statement(connection, sql).all(threadId).map((row) => row.path)
      .filter((path): path is string => typeof path === "string");
  const own = paths(
    `SELECT DISTINCT json_extract(a.value, '$.path') AS path
     FROM turns t JOIN items i ON i.turn_id = t.id, json_each(i.data_json, '$.attachments') AS a
     WHERE t.thread_id = ? AND json_type(i.data_json, '$.attachments') = 'array'`,
  );
  if (own.length === 0) return [];
  const others = new Set(paths(
    `SELECT DISTINCT json_extract(a.value, '$.path') AS path
     FROM items i JOIN turns t ON t.id = i.turn_id, json_each(i.data_json, '$.attachments') AS a
     WHERE t.thread_id <> ? AND json_type(i.data_json, '$.attachments') = 'array'`,
  ));
  return own.filter((path) => !others.has(path)).sort();
}

/**
 * The RunConfig parts this thread's events carried (each part travels once, in the first
 * event that needed it): other threads' Runs may refer to them, and once the payloads
 * are erased only the deletion event can carry them on.
 */
function carriedParts(connection: DatabaseSync, threadId: string): RunConfigPart[] {
  const rows = statement(
    connection,
    `SELECT payload_json FROM events WHERE thread_id = ? AND event_type = 'run.state_changed'
       AND json_type(payload_json, '$.runConfigParts') = 'array' ORDER BY seq`,
  ).all(threadId);
  const parts: RunConfigPart[] = [];
  for (const row of rows) {
    const body = JSON.parse(String(row.payload_json)) as { runConfigParts: RunConfigPart[] };
    parts.push(...body.runConfigParts);
  }
  return parts;
}

/**
 * Whether a thread was deleted (a `thread.deleted` event names it).
 *
 * @param db the database
 * @param threadId the thread
 * @returns true once its deletion committed
 */
export function isThreadDeleted(db: StateDatabase, threadId: string): boolean {
  return statement(
    db.connection,
    "SELECT 1 AS found FROM events WHERE thread_id = ? AND event_type = 'thread.deleted' LIMIT 1",
  ).get(threadId) !== undefined;
}

/**
 * Test fixtures for the reads: a temp state.db and plain-SQL inserts that respect the
 * foreign keys, so tests describe projections exactly as the lead's projector leaves
 * them. Only `_test.ts` files import this.
 *
 * @module
 */
import { chainLink, forgetChainTail, readChainTail } from "../journal_chain.ts";
import type { DatabaseSync } from "node:sqlite";
import { type EventScope, mirrorScope, type Thread } from "@daedalus/protocol";
import { openStateDatabase, type StateDatabase } from "../database.ts";

/** A state.db in a fresh temp directory; closed and removed when the test's scope ends. */
export interface TempStateDatabase extends AsyncDisposable {
  /** The open database. */
  db: StateDatabase;
  /** The temp directory holding it. */
  dir: string;
}

/** Opens a new state.db under a temp directory. */
export async function openTempStateDatabase(): Promise<TempStateDatabase> {
  const dir = await Deno.makeTempDir({ prefix: "daedalus_reads_" });
  const db = openStateDatabase(`${dir}/state.db`);
  return {
    db,
    dir,
    [Symbol.asyncDispose]: async () => {
      db.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A valid protocol id whose hex part is `n`, so ids sort in the order of `n`. */
export function fixtureId(prefix: string, n: number): string {
  return `${prefix}_${n.toString(16).padStart(32, "0")}`;
}

/** An ISO timestamp `seconds` after 2026-03-01T10:00:00Z. */
export function at(seconds: number): string {
  return new Date(Date.UTC(2026, 2, 1, 10, 0, 0) + seconds * 1000).toISOString();
}

/** Fields of a fixture thread; the default branch id is derived from the thread id. */
export interface ThreadFixture {
  id: string;
  title?: string | null;
  createdAt?: string;
  updatedAt?: string;
  archivedAt?: string | null;
  workspace?: Thread["workspace"];
}

/** Inserts a thread and its default branch; returns the branch id. */
export function insertThread(db: StateDatabase, thread: ThreadFixture): string {
  const branchId = thread.id.replace(/^thread_/, "branch_");
  const createdAt = thread.createdAt ?? at(0);
  db.connection.prepare(
    `INSERT INTO threads (id, title, title_source, default_branch_id, created_at, updated_at,
       archived_at, workspace_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    thread.id,
    thread.title ?? null,
    thread.title == null ? null : "user",
    branchId,
    createdAt,
    thread.updatedAt ?? createdAt,
    thread.archivedAt ?? null,
    thread.workspace == null ? null : JSON.stringify(thread.workspace),
  );
  insertBranch(db, { id: branchId, threadId: thread.id, isDefault: true });
  return branchId;
}

/** Inserts a branch of a thread. */
export function insertBranch(
  db: StateDatabase,
  branch: { id: string; threadId: string; isDefault?: boolean },
): void {
  db.connection.prepare(
    "INSERT INTO branches (id, thread_id, created_at, is_default) VALUES (?, ?, ?, ?)",
  ).run(branch.id, branch.threadId, at(0), branch.isDefault === true ? 1 : 0);
}

/** Inserts a turn. */
export function insertTurn(
  db: StateDatabase,
  turn: {
    id: string;
    threadId: string;
    branchId: string;
    ordinal: number;
    status?: string;
    createdAt?: string;
  },
): void {
  const createdAt = turn.createdAt ?? at(turn.ordinal * 60);
  db.connection.prepare(
    `INSERT INTO turns (id, thread_id, branch_id, ordinal, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    turn.id,
    turn.threadId,
    turn.branchId,
    turn.ordinal,
    turn.status ?? "completed",
    createdAt,
    createdAt,
  );
}

/** Fields of a fixture run. */
export interface RunFixture {
  id: string;
  turnId: string;
  status?: string;
  createdAt?: string;
  startedAt?: string | null;
  settledAt?: string | null;
  reasonCode?: string | null;
  providerId?: string;
  modelId?: string;
}

/** Inserts a run. */
export function insertRun(db: StateDatabase, run: RunFixture): void {
  db.connection.prepare(
    `INSERT INTO runs (id, turn_id, provider_id, model_id, status, created_at, started_at,
       settled_at, reason_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    run.id,
    run.turnId,
    run.providerId ?? "local",
    run.modelId ?? "model-a",
    run.status ?? "completed",
    run.createdAt ?? at(0),
    run.startedAt ?? null,
    run.settledAt ?? null,
    run.reasonCode ?? null,
  );
}

/** Inserts an item. */
export function insertItem(
  db: StateDatabase,
  item: {
    id: string;
    turnId: string;
    runId: string;
    ordinal: number;
    kind?: string;
    role?: string | null;
    status?: string;
    content?: string;
    data?: Record<string, unknown>;
  },
): void {
  db.connection.prepare(
    `INSERT INTO items (id, turn_id, run_id, ordinal, kind, role, status, content, created_at,
       updated_at, data_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    item.id,
    item.turnId,
    item.runId,
    item.ordinal,
    item.kind ?? "message",
    item.role === undefined ? "assistant" : item.role,
    item.status ?? "completed",
    item.content ?? `item ${item.ordinal}`,
    at(item.ordinal),
    at(item.ordinal),
    JSON.stringify(item.data ?? {}),
  );
}

/** Inserts a finished model call; with `tokens`, also its usage on `activityDate`. */
export function insertModelCall(
  db: StateDatabase,
  call: {
    runId: string;
    callOrdinal: number;
    purpose?: "execution" | "compression" | "completion_check";
    tokens?: number;
    activityDate?: string;
  },
): void {
  const purpose = call.purpose ?? "execution";
  const withUsage = call.tokens !== undefined;
  const activityDate = withUsage ? call.activityDate ?? "2026-03-01" : null;
  db.connection.prepare(
    `INSERT INTO model_calls (run_id, call_ordinal, step_ordinal, input_json, prepared_at,
       purpose, outcome, usage_json, activity_date, finished_at)
     VALUES (?, ?, ?, '{}', ?, ?, 'completed', ?, ?, ?)`,
  ).run(
    call.runId,
    call.callOrdinal,
    purpose === "execution" ? call.callOrdinal : null,
    at(0),
    purpose,
    withUsage ? JSON.stringify({ totalTokens: call.tokens }) : null,
    activityDate,
    at(1),
  );
  if (!withUsage) return;
  const scope = db.connection.prepare(
    "SELECT t.thread_id, t.id AS turn_id FROM runs r JOIN turns t ON t.id = r.turn_id WHERE r.id = ?",
  ).get(call.runId);
  db.connection.prepare(
    `INSERT INTO model_usages (thread_id, turn_id, run_id, call_ordinal, step_ordinal,
       provider_id, model_id, input_tokens, output_tokens, total_tokens, activity_date,
       completed_at) VALUES (?, ?, ?, ?, ?, 'local', 'model-a', ?, 0, ?, ?, ?)`,
  ).run(
    String(scope?.thread_id),
    String(scope?.turn_id),
    call.runId,
    call.callOrdinal,
    purpose === "execution" ? call.callOrdinal : null,
    call.tokens ?? 0,
    call.tokens ?? 0,
    activityDate,
    `${activityDate}T12:00:00.000Z`,
  );
}

/** Inserts revision `revision` of a run's context. */
export function insertContextRevision(db: StateDatabase, runId: string, revision: number): void {
  db.connection.prepare(
    "INSERT INTO context_revisions (run_id, revision, record_json) VALUES (?, ?, '{}')",
  ).run(runId, revision);
}

/** A journal event to insert; the payload's mirrored ids are added from the scope. */
export interface EventFixture extends EventScope {
  type: string;
  payload: Record<string, unknown>;
  timestamp?: string;
}

/** Appends an event as the journal stores it; returns its seq. */
export function insertEvent(db: StateDatabase, event: EventFixture): number {
  // Chained as the journal chains its rows, so a fixture journal verifies.
  const { nextSeq: seq, prevHash } = readChainTail(db.connection);
  const scope = {
    threadId: event.threadId ?? null,
    branchId: event.branchId ?? null,
    turnId: event.turnId ?? null,
    runId: event.runId ?? null,
    itemId: event.itemId ?? null,
  };
  const timestamp = event.timestamp ?? at(0);
  const payload = mirrorScope(event, event.payload);
  const link = chainLink(prevHash, {
    seq,
    schemaVersion: 1,
    type: event.type,
    ...scope,
    timestamp,
  }, payload);
  db.connection.prepare(
    `INSERT INTO events (seq, schema_version, event_type, thread_id, branch_id, turn_id, run_id,
       item_id, created_at, payload_json, prev_hash, payload_hash, hash)
       VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    seq,
    event.type,
    scope.threadId,
    scope.branchId,
    scope.turnId,
    scope.runId,
    scope.itemId,
    timestamp,
    JSON.stringify(payload),
    link.prevHash,
    link.payloadHash,
    link.hash,
  );
  forgetChainTail(db.connection); // written beside the journal's append
  return seq;
}

/** A database whose connection records the SQL of every statement prepared through it. */
export interface RecordingDatabase {
  /** Use in place of the wrapped database. */
  db: StateDatabase;
  /** The SQL of each `prepare` call, in order. */
  statements: string[];
}

/** Wraps a database so a test can count and explain the statements a read prepares. */
export function recordStatements(db: StateDatabase): RecordingDatabase {
  const statements: string[] = [];
  const connection = new Proxy<DatabaseSync>(db.connection, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          statements.push(sql);
          return target.prepare(sql);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const recording: StateDatabase = {
    path: db.path,
    readOnly: db.readOnly,
    connection,
    get isOpen() {
      return db.isOpen;
    },
    get inTransaction() {
      return db.inTransaction;
    },
    transaction<T>(fn: () => T): T {
      return db.transaction(fn);
    },
    readTransaction<T>(fn: () => T): T {
      return db.readTransaction(fn);
    },
    close() {
      db.close();
    },
  };
  return { db: recording, statements };
}

/** The `detail` lines of `EXPLAIN QUERY PLAN` for `sql`, parameters left NULL. */
export function explainQueryPlan(db: StateDatabase, sql: string): string[] {
  return db.connection.prepare(`EXPLAIN QUERY PLAN ${sql}`).all().map((row) => String(row.detail));
}

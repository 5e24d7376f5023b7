/**
 * A branch's turn history, oldest first, each turn with all of its runs and their
 * items. One page costs a fixed number of statements however many runs and items it
 * holds: the turns, then every run of those turns, then every item of those runs.
 *
 * @module
 */
import {
  BranchId,
  type Item,
  type ResultOf,
  type RunWithItems,
  ThreadId,
  type Turn,
} from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import { textColumn } from "../_sqlite.ts";
import {
  decodeHistoryCursor,
  encodeHistoryCursor,
  type HistoryDirection,
  type HistoryScope,
} from "./_cursor.ts";
import { pageLimit, requireId } from "./_params.ts";
import { overlayStreamedText } from "../streamed_text.ts";
import {
  ITEM_COLUMNS,
  itemFromRow,
  type Row,
  runFromRow,
  selectLatestSeq,
  TURN_COLUMNS,
  turnFromRow,
} from "../_rows.ts";
import { ReadError } from "./errors.ts";
import { PAGE_DEFAULT_ROWS, PAGE_MAX_ROWS } from "./limits.ts";
import { statement } from "../../_statements.ts";

/** What {@linkcode listTurns} returns: the `turn.list` result. */
export type TurnPage = ResultOf<"turn.list">;

/** Options of {@linkcode listTurns}. */
export interface ListTurnsOptions {
  /** The thread whose history is read. */
  threadId: string;
  /** The branch to read; the thread's default branch when absent. */
  branchId?: string;
  /** `nextCursor` of the previous page of the same branch; absent or null for the first. */
  cursor?: string | null;
  /** Turns per page, 1–100; default 50. */
  limit?: number;
  /**
   * `forward` (default) pages from the oldest turn; `backward` from the newest, each page
   * still in ordinal order, so a client shows the present first and prepends older pages.
   */
  direction?: HistoryDirection;
}

/**
 * Pages a branch's turns in ordinal order, each with its runs (by creation time, then
 * id) and each run's items (by ordinal).
 *
 * @param db the state database
 * @param options thread, branch, cursor and limit
 * @returns the page, `nextCursor` (null on the last page), `hasMore` and `snapshotSeq`
 * @throws {ReadError} `invalid_params` for malformed ids or a limit outside 1–100,
 *   `thread_not_found`, `branch_not_found` when the branch is not the thread's,
 *   `invalid_cursor` for a malformed cursor or one issued for another branch
 * @example
 * ```ts
 * const { turns, nextCursor } = listTurns(db, { threadId, limit: 20 });
 * ```
 */
export function listTurns(db: StateDatabase, options: ListTurnsOptions): TurnPage {
  const threadId = requireId(ThreadId, options.threadId, "threadId");
  const branchId = options.branchId === undefined
    ? undefined
    : requireId(BranchId, options.branchId, "branchId");
  const limit = pageLimit(options.limit, PAGE_DEFAULT_ROWS, PAGE_MAX_ROWS);
  const direction = options.direction ?? "forward";
  return db.readTransaction(() => {
    const scope = resolveBranch(db, threadId, branchId);
    const position = options.cursor == null
      ? null
      : decodeHistoryCursor(options.cursor, scope, direction);
    const turnRows = direction === "forward"
      ? statement(
        db.connection,
        `SELECT ${TURN_COLUMNS} FROM turns WHERE branch_id = ? AND ordinal > ?
         ORDER BY ordinal ASC LIMIT ?`,
      ).all(scope.branchId, position ?? 0, limit + 1)
      : statement(
        db.connection,
        `SELECT ${TURN_COLUMNS} FROM turns WHERE branch_id = ? AND ordinal < ?
         ORDER BY ordinal DESC LIMIT ?`,
      ).all(scope.branchId, position ?? Number.MAX_SAFE_INTEGER, limit + 1);
    const pageRows = direction === "forward"
      ? turnRows.slice(0, limit)
      : turnRows.slice(0, limit).reverse();
    const runsByTurn = selectRunsOfTurns(db, scope, pageRows.map((row) => textColumn(row, "id")));
    const turns = pageRows.map((row) =>
      turnFromRow(row, runsByTurn.get(textColumn(row, "id")) ?? [])
    );
    const hasMore = turnRows.length > limit;
    // forward pages continue after their last turn, backward pages before their first
    const edge = direction === "forward" ? turns.at(-1) : turns.at(0);
    return {
      turns,
      nextCursor: hasMore && edge !== undefined
        ? encodeHistoryCursor(scope, edge.ordinal, direction)
        : null,
      hasMore,
      snapshotSeq: selectLatestSeq(db.connection),
    };
  });
}

/** Checks the thread exists and the branch is one of its own (its default when absent). */
function resolveBranch(
  db: StateDatabase,
  threadId: string,
  branchId: string | undefined,
): HistoryScope {
  const thread = statement(db.connection, "SELECT default_branch_id FROM threads WHERE id = ?")
    .get(threadId);
  if (thread === undefined) {
    throw new ReadError("thread_not_found", `Thread ${threadId} does not exist`, "threadId");
  }
  if (branchId === undefined) {
    return { threadId, branchId: textColumn(thread, "default_branch_id") };
  }
  const branch = statement(db.connection, "SELECT 1 FROM branches WHERE id = ? AND thread_id = ?")
    .get(branchId, threadId);
  if (branch === undefined) {
    throw new ReadError(
      "branch_not_found",
      `Branch ${branchId} does not belong to thread ${threadId}`,
      "branchId",
    );
  }
  return { threadId, branchId };
}

/**
 * Every run of the given turns (all on `scope`'s branch) with its items, grouped by turn
 * id. The IN list is walked in turn-id order, so `runs_turn_history_idx` yields each
 * turn's runs by (created_at, id) without a sort.
 */
function selectRunsOfTurns(
  db: StateDatabase,
  scope: HistoryScope,
  turnIds: string[],
): Map<string, RunWithItems[]> {
  const byTurn = new Map<string, RunWithItems[]>();
  if (turnIds.length === 0) return byTurn;
  const runRows = statement(
    db.connection,
    `SELECT r.id, r.turn_id, r.provider_id, r.model_id, r.execution_policy, r.status,
            r.reason_code, r.error_message, r.created_at, r.started_at, r.settled_at,
            r.fallback_provider_id, r.fallback_model_id,
            (SELECT count(*) FROM model_calls AS c WHERE c.run_id = r.id) AS model_call_count,
            (SELECT count(*) FROM context_revisions AS v WHERE v.run_id = r.id)
              AS context_revision_count,
            (SELECT json_extract(g.config_json, '$.budget') FROM run_configs AS g
              WHERE g.run_id = r.id) AS budget_json
     FROM runs AS r
     WHERE r.turn_id IN (SELECT value FROM json_each(?))
     ORDER BY r.turn_id, r.created_at ASC, r.id ASC`,
  ).all(JSON.stringify(turnIds));
  const itemsByRun = selectItemsOfRuns(db, runRows.map((row) => textColumn(row, "id")));
  for (const row of runRows) {
    const run = runFromRow(row, scope, itemsByRun.get(textColumn(row, "id")) ?? []);
    appendTo(byTurn, run.turnId, run);
  }
  return byTurn;
}

function selectItemsOfRuns(db: StateDatabase, runIds: string[]): Map<string, Item[]> {
  const byRun = new Map<string, Item[]>();
  if (runIds.length === 0) return byRun;
  const rows: Row[] = statement(
    db.connection,
    `SELECT ${ITEM_COLUMNS} FROM items
     WHERE run_id IN (SELECT value FROM json_each(?))
     ORDER BY run_id, ordinal ASC`,
  ).all(JSON.stringify(runIds));
  for (const item of overlayStreamedText(db, rows.map(itemFromRow))) {
    appendTo(byRun, item.runId, item);
  }
  return byRun;
}

function appendTo<T>(groups: Map<string, T[]>, key: string, value: T): void {
  const group = groups.get(key);
  if (group === undefined) groups.set(key, [value]);
  else group.push(value);
}

/** Options of {@linkcode readTurnsNewestFirst}. */
export interface RecentTurnsOptions {
  /** The thread. */
  threadId: string;
  /** The branch; the thread's default branch when absent. */
  branchId?: string;
  /** Only turns with a smaller ordinal (the previous page's last); all when absent. */
  beforeOrdinal?: number;
  /** Turns to read, 1–100. */
  limit: number;
}

/**
 * Reads a branch's turns newest first, each with its runs and items — how the
 * context builder walks history back from the present, one page at a time.
 *
 * @param db the state database
 * @param options thread, branch, where to continue, and how many
 * @returns the turns, newest first
 * @throws {ReadError} as {@linkcode listTurns}
 */
export function readTurnsNewestFirst(db: StateDatabase, options: RecentTurnsOptions): Turn[] {
  const threadId = requireId(ThreadId, options.threadId, "threadId");
  const branchId = options.branchId === undefined
    ? undefined
    : requireId(BranchId, options.branchId, "branchId");
  const limit = pageLimit(options.limit, PAGE_DEFAULT_ROWS, PAGE_MAX_ROWS);
  return db.readTransaction(() => {
    const scope = resolveBranch(db, threadId, branchId);
    const turnRows = statement(
      db.connection,
      `SELECT ${TURN_COLUMNS} FROM turns WHERE branch_id = ? AND ordinal < ?
       ORDER BY ordinal DESC LIMIT ?`,
    ).all(scope.branchId, options.beforeOrdinal ?? Number.MAX_SAFE_INTEGER, limit);
    const runsByTurn = selectRunsOfTurns(db, scope, turnRows.map((row) => textColumn(row, "id")));
    return turnRows.map((row) => turnFromRow(row, runsByTurn.get(textColumn(row, "id")) ?? []));
  });
}

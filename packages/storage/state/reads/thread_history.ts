/**
 * A branch's turn history, oldest first, each turn with all of its runs and their
 * items. The history of a forked branch is its lineage (branch_lineage.ts): the turns it
 * shares with the branches it was forked from, then its own, each with its own branchId.
 * One page costs a fixed number of statements however many runs and items it holds: the
 * lineage, the turns, then every run of those turns, then every item of those runs.
 *
 * @module
 */
import {
  BranchId,
  type Item,
  type ResultOf,
  type RunUsageTotals,
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
import { branchLineage, readLineageTurns, turnTreePlaces } from "./branch_lineage.ts";
import { currentTurnRuns, keepTurnRuns } from "./turn_runs_cache.ts";

/** What {@linkcode listTurns} returns: the `turn.list` result. */
export type TurnPage = ResultOf<"turn.list">;

/** Options of {@linkcode listTurns}. */
export interface ListTurnsOptions {
  /** The thread whose history is read. */
  threadId: string;
  /** The branch to read; the thread's active branch when absent. */
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
    const turnRows = readLineageTurns(
      db.connection,
      branchLineage(db.connection, scope.branchId),
      { direction, position, limit: limit + 1 },
      TURN_COLUMNS,
    );
    const pageRows = direction === "forward"
      ? turnRows.slice(0, limit)
      : turnRows.slice(0, limit).reverse();
    const turns = turnsWithRuns(db, threadId, pageRows, true);
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

/** Checks the thread exists and the branch is one of its own (its active one when absent). */
function resolveBranch(
  db: StateDatabase,
  threadId: string,
  branchId: string | undefined,
): HistoryScope {
  const thread = statement(
    db.connection,
    "SELECT coalesce(active_branch_id, default_branch_id) AS branch_id FROM threads WHERE id = ?",
  ).get(threadId);
  if (thread === undefined) {
    throw new ReadError("thread_not_found", `Thread ${threadId} does not exist`, "threadId");
  }
  if (branchId === undefined) {
    return { threadId, branchId: textColumn(thread, "branch_id") };
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
 * The turns of `rows` with their runs and items; with `withTree`, each also with its
 * previous turn and its siblings (what `turn.list` shows; the context builder skips it).
 */
function turnsWithRuns(
  db: StateDatabase,
  threadId: string,
  rows: Row[],
  withTree: boolean,
): Turn[] {
  const branchOf = new Map(
    rows.map((row) => [textColumn(row, "id"), textColumn(row, "branch_id")]),
  );
  const runsByTurn = selectRunsOfTurns(db, threadId, branchOf);
  const places = withTree
    ? turnTreePlaces(
      db.connection,
      threadId,
      rows.map((row) => ({ id: textColumn(row, "id"), ordinal: Number(row.ordinal) })),
    )
    : new Map();
  return rows.map((row) => {
    const id = textColumn(row, "id");
    const turn = turnFromRow(row, runsByTurn.get(id) ?? []);
    const place = places.get(id);
    return place === undefined ? turn : { ...turn, ...place };
  });
}

/**
 * Every run of the given turns (by id, each with its branch) with its items, grouped by
 * turn id. The IN list is walked in turn-id order, so `runs_turn_history_idx` yields each
 * turn's runs by (created_at, id) without a sort.
 */
function selectRunsOfTurns(
  db: StateDatabase,
  threadId: string,
  branchOf: ReadonlyMap<string, string>,
): Map<string, RunWithItems[]> {
  const turnIds = [...branchOf.keys()];
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
              WHERE g.run_id = r.id) AS budget_json,
            (SELECT json_extract(g.config_json, '$.contextWindow') FROM run_configs AS g
              WHERE g.run_id = r.id) AS context_window,
            (SELECT json_array(count(*), sum(u.input_tokens), sum(u.cached_input_tokens),
                      sum(u.output_tokens), sum(u.reasoning_output_tokens))
              FROM model_usages AS u WHERE u.run_id = r.id) AS usage_json,
            (SELECT u.input_tokens FROM model_usages AS u
              WHERE u.run_id = r.id AND u.step_ordinal IS NOT NULL
              ORDER BY u.call_ordinal DESC LIMIT 1) AS last_step_input_tokens
     FROM runs AS r
     WHERE r.turn_id IN (SELECT value FROM json_each(?))
     ORDER BY r.turn_id, r.created_at ASC, r.id ASC`,
  ).all(JSON.stringify(turnIds));
  const itemsByRun = selectItemsOfRuns(db, runRows.map((row) => textColumn(row, "id")));
  for (const row of runRows) {
    const scope = { threadId, branchId: branchOf.get(textColumn(row, "turn_id")) ?? "" };
    const run = runFromRow(row, scope, itemsByRun.get(textColumn(row, "id")) ?? []);
    const usage = runUsageOf(row);
    appendTo(byTurn, run.turnId, usage ? { ...run, usage } : run);
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
  /** The branch; the thread's active branch when absent. */
  branchId?: string;
  /** Only turns with a smaller ordinal (the previous page's last); all when absent. */
  beforeOrdinal?: number;
  /** Turns to read, 1–100. */
  limit: number;
}

/**
 * Reads a branch's history newest first (its lineage: shared turns too), each turn with
 * its runs and items — how the context builder walks history back from the present, one
 * page at a time. The turns' runs are kept between reads (turn_runs_cache.ts) and shared,
 * frozen; the turn rows are read every time.
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
    const turnRows = readLineageTurns(
      db.connection,
      branchLineage(db.connection, scope.branchId),
      { direction: "backward", position: options.beforeOrdinal ?? null, limit },
      TURN_COLUMNS,
    );
    // The earlier turns' runs rarely change between Runs: the ones kept since the last
    // read (still true by the journal) are used, the rest read and kept.
    const kept = currentTurnRuns(db.connection, threadId);
    const missing = turnRows.filter((row) => !kept.has(textColumn(row, "id")));
    const read = selectRunsOfTurns(
      db,
      threadId,
      new Map(missing.map((row) => [textColumn(row, "id"), textColumn(row, "branch_id")])),
    );
    // Taken before the new turns are kept: keeping them may push kept ones out.
    const runsOf = turnRows.map((row) => {
      const id = textColumn(row, "id");
      return kept.get(id)?.runs ?? read.get(id) ?? [];
    });
    keepTurnRuns(
      db.connection,
      threadId,
      missing.map((row) => {
        const turnId = textColumn(row, "id");
        return { turnId, ordinal: Number(row.ordinal), runs: read.get(turnId) ?? [] };
      }),
    );
    return turnRows.map((row, index) => turnFromRow(row, [...runsOf[index]!]));
  });
}

/**
 * A Run's token use from its `model_usages` rows (summed in the query) and its frozen
 * context window; undefined while no call reported usage.
 */
function runUsageOf(row: Row): RunUsageTotals | undefined {
  const [calls, input, cached, output, reasoning] = JSON.parse(String(row.usage_json)) as (
    | number
    | null
  )[];
  if (!calls) return undefined;
  const count = (value: unknown) => typeof value === "number" ? value : null;
  return {
    inputTokens: input ?? 0,
    cachedInputTokens: count(cached),
    outputTokens: output ?? 0,
    reasoningOutputTokens: count(reasoning),
    reportedCalls: calls,
    lastStepInputTokens: count(row.last_step_input_tokens),
    contextWindow: count(row.context_window),
  };
}

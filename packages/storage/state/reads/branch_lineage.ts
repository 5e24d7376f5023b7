/**
 * A branch's history as a lineage: the turns it shares with the branches it was forked
 * from, then its own. Turn ordinals on a fork continue after its fork turn's ordinal, so
 * an ordinal is a turn's position in the history and a lineage is a few ordinal ranges,
 * one per branch: `(branch, after, upTo]`.
 *
 * Turns form a tree by their previous turn (`parent_turn_id`); a turn's siblings are the
 * turns of its thread that follow the same previous turn. Rows written before branches
 * could fork have no previous turn: there a turn follows the turn one ordinal earlier on
 * its branch.
 *
 * @module
 */
import type { TurnSiblings } from "@daedalus/protocol";
import type { DatabaseSync } from "node:sqlite";
import { statement } from "../../_statements.ts";
import { nullableTextColumn, textColumn } from "../_sqlite.ts";
import type { Row } from "../_rows.ts";
import { ReadError } from "./errors.ts";
import { BRANCH_LINEAGE_MAX_DEPTH } from "./limits.ts";

/** One branch's share of a history: its turns with `after < ordinal <= upTo`. */
export interface LineageSegment {
  /** The branch. */
  branchId: string;
  /** Ordinals up to and including this one are another branch's (0: none). */
  after: number;
  /** The last ordinal of this branch in the history (`Number.MAX_SAFE_INTEGER`: all). */
  upTo: number;
}

/**
 * The segments of a branch's history, the branch itself first.
 *
 * @param connection the state.db connection (inside a transaction)
 * @param branchId an existing branch
 * @returns its segments, then its parent's, up to a branch that shares nothing
 * @throws {ReadError} `projection_corrupt` when a fork turn is missing or the walk is
 *   deeper than {@linkcode BRANCH_LINEAGE_MAX_DEPTH} (a cycle)
 */
export function branchLineage(connection: DatabaseSync, branchId: string): LineageSegment[] {
  const segments: LineageSegment[] = [];
  let current: string | null = branchId;
  let upTo = Number.MAX_SAFE_INTEGER;
  while (current !== null) {
    if (segments.length >= BRANCH_LINEAGE_MAX_DEPTH) {
      throw new ReadError("projection_corrupt", `Branch ${branchId} has a lineage cycle`);
    }
    const row = statement(
      connection,
      `SELECT b.fork_turn_id, f.branch_id AS fork_branch_id, f.ordinal AS fork_ordinal
       FROM branches b LEFT JOIN turns f ON f.id = b.fork_turn_id WHERE b.id = ?`,
    ).get(current);
    if (row === undefined) {
      throw new ReadError("projection_corrupt", `Branch ${current} of a lineage is missing`);
    }
    const forkTurnId = nullableTextColumn(row, "fork_turn_id");
    if (forkTurnId === null) {
      segments.push({ branchId: current, after: 0, upTo });
      return segments;
    }
    if (row.fork_ordinal === null || row.fork_ordinal === undefined) {
      throw new ReadError("projection_corrupt", `Fork turn ${forkTurnId} is missing`);
    }
    const forkOrdinal = Number(row.fork_ordinal);
    segments.push({ branchId: current, after: forkOrdinal, upTo });
    upTo = Math.min(upTo, forkOrdinal);
    current = textColumn(row, "fork_branch_id");
  }
  return segments;
}

/** Where a page of a history starts and how large it is. */
export interface HistoryPageRange {
  /** `forward` reads ordinals after `position`, oldest first; `backward` before it, newest first. */
  direction: "forward" | "backward";
  /** The ordinal the page continues from (exclusive); null for the first page. */
  position: number | null;
  /** Most turns to read. */
  limit: number;
}

/**
 * Reads a page of a lineage's turns in its direction's order. Each segment is one range
 * of the `(branch_id, ordinal)` index, read until the page is full, so a page costs one
 * statement per branch it touches and never a sort.
 *
 * @param connection the state.db connection (inside a transaction)
 * @param segments the lineage ({@linkcode branchLineage})
 * @param range direction, position and size
 * @returns the `turns` rows (columns `columns`)
 */
export function readLineageTurns(
  connection: DatabaseSync,
  segments: readonly LineageSegment[],
  range: HistoryPageRange,
  columns: string,
): Row[] {
  const forward = range.direction === "forward";
  // Older segments hold lower ordinals: oldest first going forward, newest first back.
  const ordered = [...segments].sort((a, b) => forward ? a.after - b.after : b.after - a.after);
  const rows: Row[] = [];
  for (const segment of ordered) {
    const remaining = range.limit - rows.length;
    if (remaining <= 0) break;
    const after = forward ? Math.max(segment.after, range.position ?? 0) : segment.after;
    const before = forward
      ? segment.upTo + 1
      : Math.min(segment.upTo + 1, range.position ?? Number.MAX_SAFE_INTEGER);
    if (after + 1 >= before) continue;
    rows.push(
      ...statement(
        connection,
        `SELECT ${columns} FROM turns WHERE branch_id = ? AND ordinal > ? AND ordinal < ?
         ORDER BY ordinal ${forward ? "ASC" : "DESC"} LIMIT ?`,
      ).all(segment.branchId, after, before, remaining),
    );
  }
  return rows;
}

/**
 * The previous turn of each given turn, with the fallback for rows written before turns
 * recorded it (the turn one ordinal earlier on the same branch).
 */
const PARENT_OF_TURN = `coalesce(t.parent_turn_id,
  (SELECT p.id FROM turns AS p WHERE p.branch_id = t.branch_id AND p.ordinal = t.ordinal - 1))`;

/**
 * The last turn of a branch's history: what a new turn on it follows.
 *
 * @param connection the state.db connection (inside a transaction)
 * @param branchId an existing branch
 * @returns its id and ordinal, or null when the history is empty
 */
export function lastHistoryTurn(
  connection: DatabaseSync,
  branchId: string,
): { id: string; ordinal: number } | null {
  const [row] = readLineageTurns(
    connection,
    branchLineage(connection, branchId),
    { direction: "backward", position: null, limit: 1 },
    "id, ordinal",
  );
  return row === undefined ? null : { id: textColumn(row, "id"), ordinal: Number(row.ordinal) };
}

/** A turn's previous turn and its siblings, as `turn.list` shows them. */
export interface TurnTreePlace {
  /** The previous turn; null for a first turn. */
  parentTurnId: string | null;
  /** The turns that follow the same previous turn, this one included. */
  siblings: TurnSiblings;
}

/**
 * The tree place of each given turn (all of one thread): its previous turn and its
 * siblings in creation order. One statement per distinct ordinal of the input.
 *
 * @param connection the state.db connection (inside a transaction)
 * @param threadId the thread
 * @param turns the turns, by id and ordinal
 * @returns each turn's place, by id
 */
export function turnTreePlaces(
  connection: DatabaseSync,
  threadId: string,
  turns: readonly { id: string; ordinal: number }[],
): Map<string, TurnTreePlace> {
  const places = new Map<string, TurnTreePlace>();
  const ordinals = [...new Set(turns.map((turn) => turn.ordinal))];
  if (ordinals.length === 0) return places;
  // Siblings share their previous turn, so they share an ordinal too: each ordinal's
  // turns, grouped by previous turn, are every sibling group of the page.
  const rows = statement(
    connection,
    `SELECT t.id, t.branch_id, t.ordinal, ${PARENT_OF_TURN} AS parent_id FROM turns AS t
     WHERE t.thread_id = ? AND t.ordinal IN (SELECT value FROM json_each(?))
     ORDER BY t.ordinal, t.created_at, t.id`,
  ).all(threadId, JSON.stringify(ordinals));
  const groups = new Map<string, { id: string; branchId: string }[]>();
  const parentOf = new Map<string, string | null>();
  for (const row of rows) {
    const id = textColumn(row, "id");
    const parent = nullableTextColumn(row, "parent_id");
    parentOf.set(id, parent);
    const key = `${Number(row.ordinal)}:${parent ?? ""}`;
    const group = groups.get(key) ?? [];
    group.push({ id, branchId: textColumn(row, "branch_id") });
    groups.set(key, group);
  }
  for (const turn of turns) {
    const parent = parentOf.get(turn.id) ?? null;
    const group = groups.get(`${turn.ordinal}:${parent ?? ""}`) ?? [];
    places.set(turn.id, {
      parentTurnId: parent,
      siblings: {
        index: Math.max(0, group.findIndex((sibling) => sibling.id === turn.id)),
        count: Math.max(1, group.length),
        turnIds: group.map((sibling) => sibling.id),
        branchIds: group.map((sibling) => sibling.branchId),
      },
    });
  }
  return places;
}

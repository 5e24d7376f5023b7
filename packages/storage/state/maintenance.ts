/**
 * Offline maintenance of state.db: check (integrity, journal order, projections
 * rebuildable), backup, and repair-projections (backup first, then rebuild every
 * projection from the journal in one transaction).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { EventEnvelope } from "@daedalus/protocol";
import {
  checkpoint,
  foreignKeyCheck,
  openStateDatabase,
  quickCheck,
  type StateDatabase,
} from "./database.ts";
import { iterateJournal } from "./journal.ts";
import { applyEvent, clearProjections, PROJECTION_TABLES } from "./projections.ts";
import { backupStateDatabase, type StateBackupResult } from "./backup.ts";
import { type ChainVerification, verifyJournal } from "./journal_verify.ts";
import { storeJournaledParts } from "./run_config_parts.ts";
import type { RunConfigPart } from "@daedalus/protocol";

/** The outcome of {@linkcode checkState}. */
export interface StateCheckReport {
  /** True when every check passed. */
  ok: boolean;
  /** Problems reported by `PRAGMA quick_check`. */
  integrity: string[];
  /** Rows that break a foreign key. */
  foreignKeyViolations: number;
  /** Events in the journal. */
  events: number;
  /** Problems with journal order or event shapes (first few). */
  journal: string[];
  /** Projection tables whose stored rows differ from a rebuild from the journal. */
  projectionDifferences: string[];
  /** The hash chain walk (journal_verify.ts): the first bad row, and the head to keep. */
  chain: ChainVerification;
}

const MAX_REPORTED = 20;

/**
 * Checks an open state.db: quick_check, foreign_key_check, journal seq order and
 * event shapes, and rebuilds every projection into memory to compare with the
 * stored rows.
 *
 * @param db the database (read-only is enough)
 * @returns the report
 */
export function checkState(db: StateDatabase): StateCheckReport {
  const integrity = quickCheck(db);
  const foreignKeyViolations = foreignKeyCheck(db).length;
  const journal: string[] = [];
  const memory = openStateDatabase(":memory:");
  let events = 0;
  try {
    memory.transaction(() => {
      let previous = 0;
      preloadCarriedParts(db.connection, memory.connection);
      for (const event of iterateJournal(db.connection)) {
        events++;
        if (event.seq <= previous && journal.length < MAX_REPORTED) {
          journal.push(`seq ${event.seq} follows ${previous}`);
        }
        previous = event.seq;
        const shape = EventEnvelope.safeParse(event);
        if (!shape.success && journal.length < MAX_REPORTED) {
          const issue = shape.error.issues[0];
          journal.push(
            `seq ${event.seq} (${event.type}): ${issue?.path.join(".")}: ${issue?.message}`,
          );
        }
        applyEvent(memory.connection, event);
      }
    });
    const projectionDifferences = PROJECTION_TABLES.filter((table) =>
      snapshot(db.connection, table) !== snapshot(memory.connection, table)
    );
    const chain = verifyJournal(db.connection);
    return {
      ok: integrity.length === 0 && foreignKeyViolations === 0 && journal.length === 0 &&
        projectionDifferences.length === 0 && chain.ok,
      integrity,
      foreignKeyViolations,
      events,
      journal,
      projectionDifferences,
      chain,
    };
  } finally {
    memory.close();
  }
}

/**
 * A table's whole content in a canonical order, as one string to compare.
 *
 * @param connection the connection
 * @param table the table
 * @returns the rows as JSON, ordered by every column
 */
export function snapshot(connection: DatabaseSync, table: string): string {
  const columns = connection.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).all(
    table,
  ).map((row) => `"${String(row.name)}"`);
  const rows = connection.prepare(`SELECT * FROM ${table} ORDER BY ${columns.join(", ")}`).all();
  return JSON.stringify(rows);
}

/** The outcome of {@linkcode repairProjections}. */
export interface RepairReport {
  /** The backup made before the repair. */
  backup: StateBackupResult;
  /** Events replayed. */
  events: number;
  /** Tables whose rows changed. */
  repairedTables: string[];
}

/**
 * Rebuilds every projection from the journal. A backup is written first; the
 * rebuild is one transaction, so a failure leaves the projections as they were. The
 * journal itself, its hash chain included, is only read: a broken chain stays broken.
 *
 * @param db the database (writable)
 * @param backupPath where the pre-repair backup goes (must not exist)
 * @returns what was done
 */
export async function repairProjections(
  db: StateDatabase,
  backupPath: string,
): Promise<RepairReport> {
  const backup = await backupStateDatabase(db, backupPath);
  checkpoint(db, "TRUNCATE");
  const before = new Map(PROJECTION_TABLES.map((t) => [t, snapshot(db.connection, t)]));
  let events = 0;
  db.transaction(() => {
    // Foreign keys stay on: children are cleared first and replay inserts parents first.
    clearProjections(db.connection);
    preloadCarriedParts(db.connection, db.connection);
    for (const event of iterateJournal(db.connection)) {
      events++;
      applyEvent(db.connection, event);
    }
  });
  const repairedTables = PROJECTION_TABLES.filter((t) =>
    before.get(t) !== snapshot(db.connection, t)
  );
  return { backup, events, repairedTables };
}

/**
 * Stores the RunConfig parts every `thread.deleted` carries, before a replay of the
 * journal into projections: the event that first carried such a part was erased, and
 * Runs of other threads replayed before the deletion refer to it. Parts are immutable
 * (their hash is their identity), so storing them early changes nothing else.
 *
 * @param source the state.db connection whose journal is replayed
 * @param target the connection whose projections are rebuilt (may be the same)
 */
export function preloadCarriedParts(source: DatabaseSync, target: DatabaseSync): void {
  const rows = source.prepare(
    `SELECT payload_json FROM events WHERE event_type = 'thread.deleted'
       AND json_type(payload_json, '$.runConfigParts') = 'array' ORDER BY seq`,
  ).all();
  for (const row of rows) {
    const body = JSON.parse(String(row.payload_json)) as { runConfigParts: RunConfigPart[] };
    storeJournaledParts(target, body.runConfigParts);
  }
}

/**
 * Recall (`deterministic-hybrid-rrf-v2`): two lexical pools over memory.db, fused by
 * reciprocal rank. The FTS5 pool ranks by BM25; the keyword-overlap pool ranks by how
 * many distinct query tokens a memory shares. Each pool is at most 200 deep and both
 * are drawn from at most 2,000 candidates; a memory in both pools adds both RRF terms
 * and a pool that misses a memory costs it nothing. Ties break by memory id, so the
 * same database and query always give the same selection.
 *
 * @example
 * ```ts
 * const { memories } = recallMemories(store.database, { query: "咖啡", workspaceKey: null });
 * ```
 *
 * @module
 */
import type { MemoryKind, MemoryScope } from "@daedalus/protocol";
import type { DatabaseSync } from "node:sqlite";
import type { MemoryDatabase } from "./database.ts";
import { nullableText, numeric, type Row, text } from "./_sqlite.ts";
import { statement } from "../_statements.ts";
import { tokenizeMemoryText } from "./tokenize.ts";
import {
  RECALL_CANDIDATES_MAX,
  RECALL_FREQUENCY_CACHE_MAX_TERMS,
  RECALL_POOL_MAX_DEPTH,
  RECALL_QUERY_MAX_TOKENS,
  RECALL_RANKED_SCAN_MAX_ROWS,
  RECALL_RRF_K,
  RECALL_SELECT_MAX_CHARS,
  RECALL_SELECT_MAX_RECORDS,
} from "./limits.ts";

/**
 * Most index rows read when every query term is common (the newest matches): three
 * pools' depth, so both pools still fill 200 deep when a third is out of scope. Belongs
 * in limits.ts; kept here because this change was scoped to recall.ts.
 */
const RECALL_COMMON_WINDOW_ROWS = 3 * RECALL_POOL_MAX_DEPTH;

/** The strategy name recorded with each Run's frozen recall set. */
export const RECALL_STRATEGY = "deterministic-hybrid-rrf-v2";

/** Input of {@linkcode recallMemories}. */
export interface RecallInput {
  /** The text to recall for (usually the user's message). */
  query: string;
  /** The Run's workspace scope key; null recalls only global memories. */
  workspaceKey: string | null;
  /** At most this many memories; default and ceiling 8. */
  maxRecords?: number;
  /** At most this many content characters; default and ceiling 6,000. */
  maxChars?: number;
}

/** One recalled memory, frozen at its current revision. */
export interface RecalledMemory {
  /** The memory. */
  memoryId: string;
  /** The exact revision whose content is given. */
  revision: number;
  /** What it records. */
  kind: MemoryKind;
  /** Where it applies. */
  scope: MemoryScope;
  /** The revision's content. */
  content: string;
  /** The fused RRF score. */
  score: number;
  /** 1-based rank in the FTS5 pool, or null when absent from it. */
  ftsRank: number | null;
  /** 1-based rank in the overlap pool, or null when absent from it. */
  overlapRank: number | null;
}

/** What {@linkcode recallMemories} found. */
export interface RecallResult {
  /** {@linkcode RECALL_STRATEGY}. */
  strategy: typeof RECALL_STRATEGY;
  /** The selection, best first. */
  memories: RecalledMemory[];
  /** Candidates read from the index (≤ 2,000). */
  candidateCount: number;
  /** Ranked memories left out by the record or character budget. */
  omittedCount: number;
  /** Content characters selected. */
  totalChars: number;
}

/** A memory found by either pool, as {@linkcode fuseByReciprocalRank} ranks it. */
export interface Candidate {
  /** The memory's id. */
  id: string;
  /** Its BM25 score in the full-text pool (lower is better). */
  bm25: number;
  /** How many query tokens it shares (the overlap pool ranks by it, higher first). */
  shared: number;
}

interface WindowRow {
  rowid: number;
  bm25: number;
  shared: number;
}

interface RankedPools {
  /** In-scope memory ids by BM25, best first, ≤ 200. */
  ftsPool: string[];
  /** In-scope memory ids by shared query terms, most first, ≤ 200. */
  overlapPool: string[];
  /** Index rows read (in scope or not), ≤ 2,000. */
  candidateCount: number;
}

/** One memory of the fused ranking. */
export interface Fused {
  /** The memory's id. */
  id: string;
  /** Σ 1 / (k + rank) over the pools it appears in. */
  score: number;
  /** Its 1-based rank in the full-text pool, null when not in it. */
  ftsRank: number | null;
  /** Its 1-based rank in the overlap pool, null when not in it. */
  overlapRank: number | null;
}

/**
 * The tokens a query searches with: a Han run of two or more characters contributes
 * its bigrams only (its single characters match too much to rank by); everything else
 * as {@linkcode tokenizeMemoryText} gives it. Distinct, capped at 64.
 *
 * @param query the recall query
 * @returns the query tokens
 */
export function recallQueryTokens(query: string): string[] {
  const tokens = tokenizeMemoryText(query);
  const han = /^\p{Script=Han}$/u;
  const bigrams = new Set(
    tokens.filter((token) => [...token].length === 2 && [...token].every((c) => han.test(c))),
  );
  const covered = new Set([...bigrams].flatMap((bigram) => [...bigram]));
  const kept = tokens.filter((token) => !(han.test(token) && covered.has(token)));
  return [...new Set(kept)].slice(0, RECALL_QUERY_MAX_TOKENS);
}

/**
 * Recalls the memories that best match a query: active memories of the global scope
 * and of the given workspace only.
 *
 * @param database memory.db
 * @param input the query, the workspace key and optional tighter budgets
 * @returns the selection with its ranks and scores
 */
export function recallMemories(database: MemoryDatabase, input: RecallInput): RecallResult {
  const maxRecords = clamp(input.maxRecords, RECALL_SELECT_MAX_RECORDS);
  const maxChars = clamp(input.maxChars, RECALL_SELECT_MAX_CHARS);
  const tokens = recallQueryTokens(input.query);
  const empty: RecallResult = {
    strategy: RECALL_STRATEGY,
    memories: [],
    candidateCount: 0,
    omittedCount: 0,
    totalChars: 0,
  };
  if (tokens.length === 0) return empty;
  return database.readTransaction(() => {
    const pools = rankPools(database, tokens, input.workspaceKey);
    const fused = fuseRankedPools(pools.ftsPool, pools.overlapPool);
    const selected = selectWithinBudget(database, fused, maxRecords, maxChars);
    return {
      ...empty,
      memories: selected,
      candidateCount: pools.candidateCount,
      omittedCount: fused.length - selected.length,
      totalChars: selected.reduce((sum, memory) => sum + memory.content.length, 0),
    };
  });
}

/**
 * Reads at most 2,000 candidates with bounded work and ranks the two pools from them.
 * Tokens are taken rarest first while their documents add up to at most 2,000; those
 * are ranked by BM25. When even the rarest token is that common, the newest 600
 * matches of the whole query form the window instead. Only index rowids and scores are
 * read for the window; memory ids and scope are looked up for the pools' heads only.
 */
function rankPools(
  database: MemoryDatabase,
  tokens: readonly string[],
  workspaceKey: string | null,
): RankedPools {
  const connection = database.connection;
  const cache = frequencyCache(connection);
  const frequencies = uniqueTerms(tokens)
    .map((term) => ({ term, documents: documentFrequency(connection, cache, term) }))
    .filter((entry) => entry.documents > 0)
    .sort((a, b) => a.documents - b.documents || (a.term < b.term ? -1 : 1));
  if (frequencies.length === 0) return { ftsPool: [], overlapPool: [], candidateCount: 0 };
  const driving: string[] = [];
  let documents = 0;
  for (const entry of frequencies) {
    if (documents + entry.documents > RECALL_RANKED_SCAN_MAX_ROWS) break;
    driving.push(entry.term);
    documents += entry.documents;
  }
  const terms = frequencies.map((entry) => entry.term);
  const window = driving.length > 0
    ? readRankedWindow(connection, driving, terms)
    : readNewestWindow(connection, terms);
  const scope = new ScopeResolver(connection, workspaceKey);
  const ftsOrder = [...window.values()].sort((a, b) => a.bm25 - b.bm25 || b.rowid - a.rowid);
  const overlapOrder = ftsOrder.filter((row) => row.shared > 0)
    .sort((a, b) => b.shared - a.shared || b.rowid - a.rowid);
  return {
    ftsPool: scope.head(ftsOrder.map((row) => row.rowid)),
    overlapPool: scope.head(overlapOrder.map((row) => row.rowid)),
    candidateCount: window.size,
  };
}

/** The FTS5 vocabulary stores terms without diacritics; one query term per stored term. */
function uniqueTerms(tokens: readonly string[]): string[] {
  return [
    ...new Set(
      tokens.map((token) => token.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC")),
    ),
  ];
}

function phrase(terms: readonly string[]): string {
  return terms.map((term) => `"${term}"`).join(" OR ");
}

/**
 * The best 2,000 by BM25 over the rare (driving) terms. Shared terms are counted from
 * each term's doclist intersected with the driving terms' (FTS5 skips through the long
 * one), so no row's token text is read.
 */
function readRankedWindow(
  connection: DatabaseSync,
  driving: readonly string[],
  terms: readonly string[],
): Map<number, WindowRow> {
  const window = readWindow(
    connection,
    `SELECT rowid, bm25(memory_fts) AS bm25 FROM memory_fts
     WHERE memory_fts MATCH ? ORDER BY rank LIMIT ?`,
    phrase(driving),
    RECALL_CANDIDATES_MAX,
  );
  const drivingSet = new Set(driving);
  const select = statement(connection, "SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?");
  for (const term of terms) {
    const match = drivingSet.has(term) ? `"${term}"` : `(${phrase(driving)}) AND "${term}"`;
    countShared(window, select.all(match));
  }
  return window;
}

/** The newest 600 matches; shared terms from each term's newest rows, as many as the window. */
function readNewestWindow(
  connection: DatabaseSync,
  terms: readonly string[],
): Map<number, WindowRow> {
  const window = readWindow(
    connection,
    `SELECT rowid, bm25(memory_fts) AS bm25 FROM memory_fts
     WHERE memory_fts MATCH ? ORDER BY rowid DESC LIMIT ?`,
    phrase(terms),
    RECALL_COMMON_WINDOW_ROWS,
  );
  // Every row of a term at or above the window's oldest rowid matches the query, so it is
  // in the window: the term's newest `window.size` rows hold them all. A descending LIMIT
  // reads only those; a `rowid >=` bound makes FTS5 walk the term's whole doclist.
  const select = statement(
    connection,
    "SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rowid DESC LIMIT ?",
  );
  for (const term of terms) countShared(window, select.all(`"${term}"`, window.size));
  return window;
}

function readWindow(
  connection: DatabaseSync,
  sql: string,
  match: string,
  limit: number,
): Map<number, WindowRow> {
  const window = new Map<number, WindowRow>();
  for (const row of statement(connection, sql).all(match, limit)) {
    const rowid = numeric(row, "rowid");
    window.set(rowid, { rowid, bm25: numeric(row, "bm25"), shared: 0 });
  }
  return window;
}

function countShared(window: Map<number, WindowRow>, rows: readonly Row[]): void {
  for (const row of rows) {
    const entry = window.get(numeric(row, "rowid"));
    if (entry !== undefined) entry.shared += 1;
  }
}

/**
 * Maps index rowids to in-scope memory ids in batches, walking a pool's order until it
 * holds 200 memories: only the pools' heads (and the out-of-scope rows among them) pay
 * for the id and scope lookups. The unary `+` keeps the planner on the primary key.
 */
class ScopeResolver {
  readonly #resolved = new Map<number, string | null>();
  readonly #lookup;
  readonly #workspaceKey: string | null;

  constructor(connection: DatabaseSync, workspaceKey: string | null) {
    this.#workspaceKey = workspaceKey;
    this.#lookup = statement(
      connection,
      `SELECT f.rowid AS rowid, r.id AS id FROM memory_fts f
       JOIN memory_records r ON r.id = f.memory_id
       WHERE f.rowid IN (SELECT value FROM json_each(?)) AND +r.state = 'active'
         AND (+r.scope_type = 'global' OR +r.scope_key = ?)`,
    );
  }

  head(order: readonly number[]): string[] {
    const pool: string[] = [];
    let next = 0;
    while (pool.length < RECALL_POOL_MAX_DEPTH && next < order.length) {
      const batch = order.slice(next, next + RECALL_POOL_MAX_DEPTH - pool.length + 8);
      next += batch.length;
      this.#resolve(batch.filter((rowid) => !this.#resolved.has(rowid)));
      for (const rowid of batch) {
        const id = this.#resolved.get(rowid);
        if (id !== null && id !== undefined && pool.length < RECALL_POOL_MAX_DEPTH) pool.push(id);
      }
    }
    return pool;
  }

  #resolve(rowids: readonly number[]): void {
    if (rowids.length === 0) return;
    for (const rowid of rowids) this.#resolved.set(rowid, null);
    for (const row of this.#lookup.all(JSON.stringify(rowids), this.#workspaceKey)) {
      this.#resolved.set(numeric(row, "rowid"), text(row, "id"));
    }
  }
}

/**
 * Documents containing a term, from FTS5's vocabulary. The vocabulary walks the term's
 * doclist (about 20 ns a document), so counts are cached per connection until the
 * database changes: this connection's writes move `total_changes()`, another
 * connection's commits move `PRAGMA data_version`.
 */
function documentFrequency(
  connection: DatabaseSync,
  cache: Map<string, number>,
  term: string,
): number {
  const cached = cache.get(term);
  if (cached !== undefined) return cached;
  const row = statement(connection, "SELECT doc FROM temp.memory_fts_terms WHERE term = ?")
    .get(term);
  const documents = row === undefined ? 0 : numeric(row, "doc");
  if (cache.size >= RECALL_FREQUENCY_CACHE_MAX_TERMS) cache.clear();
  cache.set(term, documents);
  return documents;
}

function frequencyCache(connection: DatabaseSync): Map<string, number> {
  let entry = frequencies.get(connection);
  if (entry === undefined) {
    // A TEMP table lives in this connection only: memory.db's schema stays untouched.
    connection.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_fts_terms USING fts5vocab(main, 'memory_fts', 'row')",
    );
    entry = { stamp: "", documents: new Map() };
    frequencies.set(connection, entry);
  }
  const row = statement(
    connection,
    "SELECT total_changes() AS changes, data_version AS version FROM pragma_data_version",
  ).get();
  const stamp = row === undefined ? "" : `${numeric(row, "changes")}:${numeric(row, "version")}`;
  if (stamp === "" || stamp !== entry.stamp) {
    entry.stamp = stamp;
    entry.documents.clear();
  }
  return entry.documents;
}

const frequencies = new WeakMap<
  DatabaseSync,
  { stamp: string; documents: Map<string, number> }
>();

/**
 * Fuses the two pools by reciprocal rank: score = Σ 1 / (k + rank) over the pools a
 * memory appears in (k = 60, ranks 1-based, each pool ≤ 200 deep).
 *
 * @param candidates each candidate's BM25 score (lower is better) and shared-token count
 * @returns the fused ranking, best first, ties by id
 */
export function fuseByReciprocalRank(candidates: readonly Candidate[]): Fused[] {
  const byId = (a: Candidate, b: Candidate) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const ftsPool = [...candidates].sort((a, b) => a.bm25 - b.bm25 || byId(a, b))
    .slice(0, RECALL_POOL_MAX_DEPTH);
  const overlapPool = candidates.filter((candidate) => candidate.shared > 0)
    .sort((a, b) => b.shared - a.shared || byId(a, b))
    .slice(0, RECALL_POOL_MAX_DEPTH);
  return fuseRankedPools(
    ftsPool.map((candidate) => candidate.id),
    overlapPool.map((candidate) => candidate.id),
  );
}

/** RRF over two pools already ranked best first; ties by id. */
function fuseRankedPools(ftsPool: readonly string[], overlapPool: readonly string[]): Fused[] {
  const fused = new Map<string, Fused>();
  const entry = (id: string) => {
    const existing = fused.get(id);
    if (existing) return existing;
    const created: Fused = { id, score: 0, ftsRank: null, overlapRank: null };
    fused.set(id, created);
    return created;
  };
  ftsPool.forEach((id, index) => {
    const fusedEntry = entry(id);
    fusedEntry.ftsRank = index + 1;
    fusedEntry.score += 1 / (RECALL_RRF_K + index + 1);
  });
  overlapPool.forEach((id, index) => {
    const fusedEntry = entry(id);
    fusedEntry.overlapRank = index + 1;
    fusedEntry.score += 1 / (RECALL_RRF_K + index + 1);
  });
  return [...fused.values()].sort((a, b) =>
    b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Walks the ranking, skipping a memory that would overflow the character budget. */
function selectWithinBudget(
  database: MemoryDatabase,
  fused: readonly Fused[],
  maxRecords: number,
  maxChars: number,
): RecalledMemory[] {
  const read = statement(
    database.connection,
    `SELECT r.kind, r.scope_type, r.scope_key, r.current_revision, v.content
     FROM memory_records r JOIN memory_revisions v
       ON v.memory_id = r.id AND v.revision = r.current_revision
     WHERE r.id = ? AND r.state = 'active'`,
  );
  const selected: RecalledMemory[] = [];
  let chars = 0;
  for (const candidate of fused) {
    if (selected.length >= maxRecords || chars >= maxChars) break;
    const row = read.get(candidate.id);
    const content = row === undefined ? null : nullableText(row, "content");
    if (row === undefined || content === null || chars + content.length > maxChars) continue;
    const scopeKey = nullableText(row, "scope_key");
    selected.push({
      memoryId: candidate.id,
      revision: numeric(row, "current_revision"),
      kind: text(row, "kind") as MemoryKind,
      scope: scopeKey === null
        ? { type: "global", key: null }
        : { type: "workspace", key: scopeKey },
      content,
      score: candidate.score,
      ftsRank: candidate.ftsRank,
      overlapRank: candidate.overlapRank,
    });
    chars += content.length;
  }
  return selected;
}

function clamp(value: number | undefined, ceiling: number): number {
  if (value === undefined || !Number.isFinite(value)) return ceiling;
  return Math.min(Math.max(Math.trunc(value), 0), ceiling);
}

/**
 * Export of one thread's events: JSON lines carrying each row's chain columns (so the
 * segment can be checked with {@linkcode verifyExportedSegment}), or a Markdown transcript
 * for people to read.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { EXPORT_PAGE_ROWS } from "../limits.ts";
import { statement } from "../_statements.ts";
import {
  CHAIN_COLUMNS,
  type ChainRow,
  chainRowOf,
  type ChainVerification,
  verifyChainSegment,
} from "./journal_verify.ts";

/** The formats of `storage export`. */
export const EXPORT_FORMATS = ["jsonl", "markdown"] as const;

/** One of {@linkcode EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A bad export request or a segment that cannot be read; `code` is stable. */
export class JournalExportError extends Error {
  /** `thread_not_found` or `export_invalid`. */
  readonly code: "thread_not_found" | "export_invalid";

  /**
   * Makes the error.
   *
   * @param code stable reason
   * @param message what is wrong
   */
  constructor(code: "thread_not_found" | "export_invalid", message: string) {
    super(message);
    this.name = "JournalExportError";
    this.code = code;
  }
}

/**
 * Runs `fn` with the state.db connection in one read: the store's `read`, or a direct
 * call for a connection the caller holds.
 */
export type ExportReader = <T>(fn: (connection: DatabaseSync) => T) => T;

/** One page of a thread's rows after `afterSeq` up to `untilSeq`, oldest first. */
function threadRowsPage(
  connection: DatabaseSync,
  threadId: string,
  afterSeq: number,
  untilSeq: number,
): ChainRow[] {
  return statement(
    connection,
    `SELECT ${CHAIN_COLUMNS} FROM events WHERE thread_id = ? AND seq > ? AND seq <= ?
       ORDER BY seq LIMIT ?`,
  ).all(threadId, afterSeq, untilSeq, EXPORT_PAGE_ROWS).map((row) =>
    chainRowOf(row as Record<string, unknown>)
  );
}

/**
 * A thread's export as text chunks, one page of rows ({@linkcode EXPORT_PAGE_ROWS}) per
 * chunk, each page read in its own `read`: the CLI joins them, the HTTP route streams
 * them, so a long thread is never held in memory at once nor holds a read open between
 * chunks. The export ends at the journal's newest seq when it starts (rows appended
 * later are not included), so its last row is the head it reports.
 *
 * @param read runs one read on the state.db connection
 * @param threadId the thread
 * @param format `jsonl` (rows with their chain columns) or `markdown` (a transcript)
 * @returns the chunks; the first `next()` throws when the thread has no events
 * @throws {JournalExportError} `thread_not_found` when the thread has no events or was
 *   deleted
 */
export function* exportThreadChunks(
  read: ExportReader,
  threadId: string,
  format: ExportFormat,
): Generator<string, void, undefined> {
  // One read: the head the export ends at, and whether the thread was deleted (only
  // tombstones and the deletion record are left of it: nothing to export).
  const { untilSeq, deleted } = read((connection) => ({
    untilSeq: Number(
      statement(connection, "SELECT coalesce(max(seq), 0) AS seq FROM events").get()?.seq,
    ),
    deleted: statement(
      connection,
      "SELECT 1 AS found FROM events WHERE thread_id = ? AND event_type = 'thread.deleted' LIMIT 1",
    ).get(threadId) !== undefined,
  }));
  if (deleted) throw new JournalExportError("thread_not_found", `Thread ${threadId} was deleted`);
  let after = 0;
  let head: ChainRow | null = null;
  for (;;) {
    const rows = read((connection) => threadRowsPage(connection, threadId, after, untilSeq));
    if (rows.length === 0) break;
    if (head === null && format === "markdown") {
      const title = read((connection) => threadTitle(connection, threadId));
      // No export time: the same journal exports to the same text (the head below says
      // how far it goes).
      yield `# ${title ?? `Thread ${threadId}`}\n\nThread \`${threadId}\`. ` +
        "The JSON export has every event with its hashes.\n\n";
    }
    let text = "";
    for (const row of rows) text += format === "jsonl" ? jsonlLine(row) : markdownBlock(row);
    head = rows[rows.length - 1]!;
    after = head.seq;
    yield text;
  }
  if (head === null) {
    throw new JournalExportError("thread_not_found", `No events of thread ${threadId}`);
  }
  if (format === "markdown") {
    yield `---\n\nLast event: seq ${head.seq}, hash \`${head.hash}\`.\n`;
  }
}

function jsonlLine(row: ChainRow): string {
  const { payloadJson, prevHash, payloadHash, hash, ...envelope } = row;
  return JSON.stringify({
    ...envelope,
    payload: JSON.parse(payloadJson),
    prevHash,
    payloadHash,
    hash,
  }) + "\n";
}

/**
 * One JSON line per event of a thread: the envelope, the payload, and `prevHash`,
 * `payloadHash`, `hash`.
 *
 * @param connection the state.db connection
 * @param threadId the thread
 * @returns the lines, each ending in a newline
 * @throws {JournalExportError} `thread_not_found` when the thread has no events
 */
export function exportThreadJsonl(connection: DatabaseSync, threadId: string): string {
  return [...exportThreadChunks((fn) => fn(connection), threadId, "jsonl")].join("");
}

/**
 * Reads an exported JSON lines segment back into chain rows.
 *
 * @param text the export
 * @returns the rows, in file order
 * @throws {JournalExportError} `export_invalid` naming the first bad line
 */
export function parseExportedSegment(text: string): ChainRow[] {
  const rows: ChainRow[] = [];
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    if (line === "" && index === lines.length - 1) break;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line);
    } catch {
      throw new JournalExportError("export_invalid", `line ${index + 1} is not JSON`);
    }
    const strings = ["type", "timestamp", "prevHash", "payloadHash", "hash"];
    const ids = ["threadId", "branchId", "turnId", "runId", "itemId"];
    const bad = value === null || typeof value !== "object" || Array.isArray(value) ||
      !Number.isSafeInteger(value.seq) || !Number.isSafeInteger(value.schemaVersion) ||
      strings.some((key) => typeof value[key] !== "string") ||
      ids.some((key) => value[key] !== null && typeof value[key] !== "string") ||
      !("payload" in value);
    if (bad) {
      throw new JournalExportError("export_invalid", `line ${index + 1} is not an exported event`);
    }
    rows.push({
      seq: value.seq as number,
      schemaVersion: value.schemaVersion as number,
      type: value.type as string,
      threadId: value.threadId as string | null,
      branchId: value.branchId as string | null,
      turnId: value.turnId as string | null,
      runId: value.runId as string | null,
      itemId: value.itemId as string | null,
      timestamp: value.timestamp as string,
      // The stored text the hash covers: JSON.stringify gives it back after the parse.
      payloadJson: JSON.stringify(value.payload),
      prevHash: value.prevHash as string,
      payloadHash: value.payloadHash as string,
      hash: value.hash as string,
    });
  }
  return rows;
}

/**
 * Checks an exported JSON lines segment (journal_verify.ts `verifyChainSegment`).
 *
 * @param text the export
 * @returns the verification
 * @throws {JournalExportError} `export_invalid` when a line cannot be read
 */
export function verifyExportedSegment(text: string): ChainVerification {
  return verifyChainSegment(parseExportedSegment(text));
}

/**
 * A readable Markdown transcript of a thread: its title, each message under who said it
 * (streamed deltas joined), one line per tool call (a failure with its first line), and
 * how a Run ended when it did not complete. The other events (states, model calls) are
 * in the JSON export, with the chain.
 *
 * @param connection the state.db connection
 * @param threadId the thread
 * @returns the Markdown
 * @throws {JournalExportError} `thread_not_found` when the thread has no events
 */
export function exportThreadMarkdown(connection: DatabaseSync, threadId: string): string {
  return [...exportThreadChunks((fn) => fn(connection), threadId, "markdown")].join("");
}

/** Longest tool-argument text shown on a tool call's line. */
const TRANSCRIPT_ARGUMENTS_MAX_CHARS = 200;

function threadTitle(connection: DatabaseSync, threadId: string): string | null {
  const row = statement(connection, "SELECT title FROM threads WHERE id = ?").get(threadId);
  const title = row?.title;
  return typeof title === "string" && title.trim() !== "" ? title.trim() : null;
}

function markdownBlock(row: ChainRow): string {
  if (row.type === "run.settled") {
    const payload = JSON.parse(row.payloadJson) as Record<string, unknown>;
    if (payload.status === "completed") return "";
    return `_The run ${String(payload.status)}: ${String(payload.reasonCode ?? "")}._\n\n`;
  }
  if (row.type !== "item.started" && row.type !== "item.completed" && row.type !== "run.steered") {
    return ""; // states, deltas, model calls: in the JSON export
  }
  const item = (JSON.parse(row.payloadJson) as Record<string, unknown>).item as
    | Record<string, unknown>
    | undefined;
  if (!item) return "";
  // A user message is started completed; an assistant message completes after its deltas.
  const finished = row.type !== "item.started" || item.status === "completed";
  if (!finished) return "";
  const data = (item.data ?? {}) as Record<string, unknown>;
  if (item.kind === "message" && typeof item.content === "string") {
    const who = item.role === "user" ? "You" : item.role === "assistant" ? "Assistant" : "Message";
    return `### ${who} · ${row.timestamp}\n\n${item.content}\n\n`;
  }
  if (item.kind === "tool_call") {
    const args = JSON.stringify(data.arguments ?? {});
    const shown = args.length > TRANSCRIPT_ARGUMENTS_MAX_CHARS
      ? `${args.slice(0, TRANSCRIPT_ARGUMENTS_MAX_CHARS)}…`
      : args;
    return `- Tool \`${String(data.toolId ?? "?")}\` \`${shown.replaceAll("`", "'")}\`\n\n`;
  }
  if (item.kind === "tool_result" && data.isError === true && typeof item.content === "string") {
    const first = item.content.trim().split("\n")[0] ?? "";
    return `  - failed: ${first}\n\n`;
  }
  return "";
}

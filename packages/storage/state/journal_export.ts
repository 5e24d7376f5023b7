/**
 * Export of one thread's events: JSON lines carrying each row's chain columns (so the
 * segment can be checked with {@linkcode verifyExportedSegment}), or a Markdown transcript
 * for people to read.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
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

function* threadRows(connection: DatabaseSync, threadId: string): Generator<ChainRow> {
  const rows = connection.prepare(
    `SELECT ${CHAIN_COLUMNS} FROM events WHERE thread_id = ? ORDER BY seq`,
  )
    .iterate(threadId);
  let any = false;
  for (const row of rows) {
    any = true;
    yield chainRowOf(row as Record<string, unknown>);
  }
  if (!any) throw new JournalExportError("thread_not_found", `No events of thread ${threadId}`);
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
  let text = "";
  for (const row of threadRows(connection, threadId)) {
    const { payloadJson, prevHash, payloadHash, hash, ...envelope } = row;
    text += JSON.stringify({
      ...envelope,
      payload: JSON.parse(payloadJson),
      prevHash,
      payloadHash,
      hash,
    }) +
      "\n";
  }
  return text;
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
 * A readable Markdown transcript of a thread: the messages' text (streamed deltas joined),
 * and one line for every other event.
 *
 * @param connection the state.db connection
 * @param threadId the thread
 * @returns the Markdown
 * @throws {JournalExportError} `thread_not_found` when the thread has no events
 */
export function exportThreadMarkdown(connection: DatabaseSync, threadId: string): string {
  const out: string[] = [`# Thread ${threadId}`, ""];
  let head: ChainRow | null = null;
  for (const row of threadRows(connection, threadId)) {
    head = row;
    const payload = JSON.parse(row.payloadJson) as Record<string, unknown>;
    if (row.type === "item.delta") continue; // the completed item carries the whole text
    const item = payload.item as Record<string, unknown> | undefined;
    // A user message is started completed; an assistant message completes after its deltas.
    const finished = row.type === "item.completed" ||
      (row.type === "item.started" && item?.status === "completed");
    if (finished && item?.kind === "message" && typeof item.content === "string") {
      out.push(`**${String(item.role ?? "message")}** · ${row.timestamp} · seq ${row.seq}`, "");
      out.push(item.content.split("\n").map((line) => `> ${line}`).join("\n"), "");
      continue;
    }
    const kind = item && typeof item.kind === "string" ? ` (${item.kind})` : "";
    out.push(`- seq ${row.seq} · ${row.timestamp} · \`${row.type}\`${kind}`, "");
  }
  if (head) out.push("---", "", `Last event: seq ${head.seq}, hash \`${head.hash}\`.`, "");
  return out.join("\n");
}

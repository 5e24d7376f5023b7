/**
 * `GET /api/threads/<threadId>/export?format=markdown|jsonl`: a thread's export as a
 * download, for the PWA's thread menu. The text comes from storage's
 * `exportThreadChunks` (the same implementation as `storage export`), streamed one page
 * per chunk so a long thread is never built in memory; each page is its own short read,
 * so the stream holds no read open while the client is slow.
 *
 * Refusals, before any byte is sent: a format other than the two is 400
 * `export_format_invalid`; an id that is not a thread id, or a thread without events, is
 * 404 `thread_not_found`.
 *
 * @module
 */
import type { Handler } from "hono";
import { ThreadId } from "@daedalus/protocol";
import { EXPORT_FORMATS, type ExportFormat, JournalExportError } from "@daedalus/storage";
import type { ServerEnv } from "./auth.ts";
import { transportError } from "./_http.ts";

/** Produces a thread's export as text chunks (storage's `exportThreadChunks` over the store). */
export type ThreadExporter = (threadId: string, format: ExportFormat) => Iterator<string>;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  markdown: "text/markdown; charset=utf-8",
  jsonl: "application/x-ndjson; charset=utf-8",
};
const EXTENSIONS: Record<ExportFormat, string> = { markdown: "md", jsonl: "jsonl" };

function isExportFormat(value: string | undefined): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value ?? "");
}

/**
 * The handler for `GET /api/threads/:threadId/export` (mount it behind `requireAuth`).
 *
 * @param exporter the thread's export chunks
 * @returns the handler: 200 with the text streamed, 400 `export_format_invalid`, or 404
 *   `thread_not_found`
 */
export function threadExportHandler(exporter: ThreadExporter): Handler<ServerEnv> {
  return (c) => {
    const format = c.req.query("format");
    if (!isExportFormat(format)) {
      return transportError(
        400,
        "export_format_invalid",
        `format must be one of ${EXPORT_FORMATS.join(", ")}`,
      );
    }
    const threadId = c.req.param("threadId") ?? "";
    if (!ThreadId.safeParse(threadId).success) {
      return transportError(404, "thread_not_found", "No such thread");
    }
    const chunks = exporter(threadId, format);
    let first: IteratorResult<string>;
    try {
      first = chunks.next(); // a thread without events fails here, before the headers
    } catch (error) {
      if (error instanceof JournalExportError && error.code === "thread_not_found") {
        return transportError(404, "thread_not_found", "No such thread");
      }
      throw error;
    }
    const encoder = new TextEncoder();
    let pending: IteratorResult<string> | null = first;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pending ?? chunks.next();
        pending = null;
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      cancel() {
        chunks.return?.();
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        "content-type": CONTENT_TYPES[format],
        // The PWA names the file from the title; this is the name without it.
        "content-disposition": `attachment; filename="${threadId}.${EXTENSIONS[format]}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
      },
    });
  };
}

/**
 * Catching up with `event.replay`: page from a seq until the server says there is no
 * more. Events are handed over unvalidated, one by one, so that one event this client
 * cannot read does not cost the whole page.
 *
 * @module
 */
import { parseResult } from "@daedalus/protocol";
import { ClientError } from "./errors.ts";
import { REPLAY_PAGE_LIMIT } from "./limits.ts";

/** The one thing replay needs from a session: sending a request. */
export interface ReplayTransport {
  /**
   * Sends `event.replay`.
   *
   * @param method `event.replay`
   * @param params `{afterSeq, limit}`
   * @returns the raw result
   */
  request(method: "event.replay", params: { afterSeq: number; limit: number }): Promise<unknown>;
}

/**
 * Replays every event after `afterSeq`, paging while `hasMore`.
 *
 * @param transport where the requests go
 * @param afterSeq the last seq already seen
 * @param ingest called with each raw event, in the server's order
 * @param limit the page size
 * @param skip called with each seq the server says a thread deletion erased (no event
 *   comes for it: the caller counts it as seen)
 * @returns the server's `latestSeq` at the last page
 * @throws {RpcError} the server's error, or -32603 when a page's fields are invalid
 * @throws {ClientError} `event_gap` when a page makes no progress, or `connection_lost`
 */
export async function replayEvents(
  transport: ReplayTransport,
  afterSeq: number,
  ingest: (event: unknown) => void,
  limit: number = REPLAY_PAGE_LIMIT,
  skip: (seq: number) => void = () => {},
): Promise<number> {
  let cursor = afterSeq;
  for (;;) {
    const raw = await transport.request("event.replay", { afterSeq: cursor, limit });
    const page = readPage(raw);
    for (const event of page.events) ingest(event);
    for (const seq of page.erasedSeqs ?? []) skip(seq);
    if (!page.hasMore) return page.latestSeq;
    if (page.nextAfterSeq <= cursor) {
      throw new ClientError(
        "event_gap",
        `event.replay after seq ${cursor} reported more events but made no progress`,
        { seq: cursor },
      );
    }
    cursor = page.nextAfterSeq;
  }
}

/** Validates the page's own fields; the events are validated one by one by the caller. */
function readPage(raw: unknown): {
  events: unknown[];
  latestSeq: number;
  nextAfterSeq: number;
  hasMore: boolean;
  erasedSeqs?: number[];
} {
  const record = typeof raw === "object" && raw !== null ? raw as Record<string, unknown> : null;
  const events = record?.events;
  if (!record || !Array.isArray(events)) return parseResult("event.replay", raw);
  const page = parseResult("event.replay", { ...record, events: [] });
  return { ...page, events };
}

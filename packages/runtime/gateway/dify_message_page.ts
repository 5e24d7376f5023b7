/**
 * One page of Dify's `GET /messages`, read from the newest turn backwards (`turn.list`
 * with `direction: "backward"`) only as far as the page needs: the first page holds the
 * newest `limit` messages; with `first_id` it holds the `limit` messages before that one
 * (older), as Dify pages back through a conversation. `has_more` says whether older
 * messages remain. A turn without a run (nothing answered yet) is no message.
 *
 * @module
 */

/** One page of turns as `turn.list` answers it (ordinal order within the page). */
export interface TurnPage<T> {
  /** The turns of the page, oldest first. */
  turns: T[];
  /** The cursor of the next (older) page. */
  nextCursor: string | null;
  /** Whether an older page exists. */
  hasMore: boolean;
}

/** What {@linkcode difyMessagePage} needs. */
export interface MessagePageOptions<T, M extends { id: string }> {
  /** Reads one backward page of turns (`limit` of them at most). */
  readTurns: (cursor: string | null, limit: number) => Promise<TurnPage<T>>;
  /** The message of a turn, or null when the turn is none. */
  toMessage: (turn: T) => M | null;
  /** The page size (1–100). */
  limit: number;
  /** The message to page back from (exclusive), or undefined for the newest page. */
  firstId?: string;
  /** The turn page size to read with; default 100 (`turn.list`'s largest). */
  readLimit?: number;
}

/**
 * The page.
 *
 * @param options how to read turns, the size, where to start
 * @returns the messages oldest first with `has_more`, or `first_not_found`
 */
export async function difyMessagePage<T, M extends { id: string }>(
  options: MessagePageOptions<T, M>,
): Promise<{ data: M[]; hasMore: boolean } | "first_not_found"> {
  const readLimit = options.readLimit ?? 100;
  // Newest first; one more than the page, to know whether older ones remain.
  const collected: M[] = [];
  let found = options.firstId === undefined;
  let cursor: string | null = null;
  for (;;) {
    const page: TurnPage<T> = await options.readTurns(cursor, readLimit);
    for (const turn of [...page.turns].reverse()) {
      const message = options.toMessage(turn);
      if (message === null) continue;
      if (!found) {
        found = message.id === options.firstId;
        continue;
      }
      collected.push(message);
      if (collected.length > options.limit) {
        return { data: collected.slice(0, options.limit).reverse(), hasMore: true };
      }
    }
    if (!page.hasMore || page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
  if (!found) return "first_not_found";
  return { data: collected.reverse(), hasMore: false };
}

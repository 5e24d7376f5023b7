/**
 * The search dialog's filter over the loaded threads' titles: every word of the query
 * must occur in the title, ignoring case, width and accents-as-composed (NFKC). The
 * input order (most recent first) is kept.
 *
 * @module
 */
import type { Thread } from "@daedalus/client";

/** The most results the dialog lists. */
export const SEARCH_RESULTS_MAX = 50;

function normalize(text: string): string {
  return text.normalize("NFKC").toLocaleLowerCase();
}

/**
 * Filters threads by title.
 *
 * @param threads the loaded threads, in display order
 * @param query what the user typed
 * @param untitled the label untitled threads are searched (and shown) by
 * @returns the matches, at most {@linkcode SEARCH_RESULTS_MAX}
 */
export function searchThreads(
  threads: readonly Thread[],
  query: string,
  untitled: string,
): Thread[] {
  const words = normalize(query).split(/\s+/).filter((word) => word !== "");
  const matches: Thread[] = [];
  for (const thread of threads) {
    const title = normalize(thread.title ?? untitled);
    if (words.every((word) => title.includes(word))) matches.push(thread);
    if (matches.length === SEARCH_RESULTS_MAX) break;
  }
  return matches;
}

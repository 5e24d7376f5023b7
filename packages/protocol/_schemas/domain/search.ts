/**
 * Message search results: where something was said, with a plain-text snippet.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { BranchId, ItemId, ThreadId, Timestamp, TurnId } from "../ids.ts";
import { SEARCH_SNIPPET_MAX_CHARS } from "../../limits.ts";

export const SearchHighlight = z.strictObject({
  /** First UTF-16 code unit of the match in the snippet. */
  start: z.int().min(0),
  /** One past its last code unit. */
  end: z.int().min(0),
}).register(docs, {
  description: "Where a match lies in a search snippet: UTF-16 offsets `[start, end)`.",
});

export const MessageSearchResult = z.looseObject({
  threadId: ThreadId,
  threadTitle: z.string().nullable(),
  branchId: BranchId,
  turnId: TurnId,
  itemId: ItemId,
  role: z.enum(["user", "assistant"]),
  /** Plain text (never HTML) around the first match, whitespace collapsed; `…` where cut. */
  snippet: z.string().max(SEARCH_SNIPPET_MAX_CHARS),
  highlights: z.array(SearchHighlight),
  /** When the message was written. */
  createdAt: Timestamp,
  /** Whether its thread is archived (archived threads stay searchable). */
  archived: z.boolean(),
}).register(docs, {
  description: "One message that matches a `thread.search` query: its place (thread, " +
    "branch, turn, item), a snippet with the matches marked, and its thread's state.",
});

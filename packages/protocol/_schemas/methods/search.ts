/**
 * `thread.search`: finds what was said in user and assistant messages.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { Cursor } from "../ids.ts";
import { MessageSearchResult } from "../domain/search.ts";
import { SEARCH_MAX_LIMIT, SEARCH_QUERY_MAX_CHARS } from "../../limits.ts";

/** The message search method. */
export const searchMethods = {
  "thread.search": method({
    description: "Finds user and assistant messages containing the query text (a literal " +
      "substring, case-insensitive; no search syntax), archived threads included, best " +
      "match first then newest; cursors are bound to their query",
    params: z.strictObject({
      /** Trimmed; 1–200 characters. Queries of 1–2 characters match newest first. */
      query: z.string().trim().min(1).max(SEARCH_QUERY_MAX_CHARS),
      limit: z.int().min(1).max(SEARCH_MAX_LIMIT).optional(),
      cursor: Cursor.nullable().optional(),
    }),
    result: z.looseObject({
      results: z.array(MessageSearchResult),
      nextCursor: Cursor.nullable(),
    }),
  }),
};

/**
 * `thread.search`: finds what was said in user and assistant messages, over the message
 * search index of state.db (a projection, so it answers from committed state only).
 *
 * @module
 */
import type { ResultOf, ValidParamsOf } from "@daedalus/protocol";
import { searchMessages, type StateStore } from "@daedalus/storage";
import type { Handled } from "./services.ts";

/** The search handler. */
export type SearchHandlers = {
  "thread.search": (
    params: ValidParamsOf<"thread.search">,
  ) => Promise<Handled<ResultOf<"thread.search">>>;
};

/**
 * Builds the handler.
 *
 * @param store the state store
 * @returns the handler; bad params and foreign cursors reach the client as -32602
 *   `invalid_params` / `invalid_cursor` through the dispatcher
 */
export function createSearchHandlers(store: StateStore): SearchHandlers {
  return {
    "thread.search": (params) =>
      Promise.resolve({ result: store.read((db) => searchMessages(db, params)) }),
  };
}

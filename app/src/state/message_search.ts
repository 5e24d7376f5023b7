/**
 * Message search from the Ctrl/Cmd+K dialog: asking `thread.search` (answers that come
 * back after a newer query are dropped), splitting a snippet into marked and plain parts
 * (the server marks matches by offsets, never HTML), and opening a result: the thread,
 * older pages until the turn is loaded (or its branch, when only that branch holds it),
 * then the feed scrolls the message into view and flashes it.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { type ResultOf, SEARCH_QUERY_MAX_CHARS } from "@daedalus/client";
import { conversation, loadOlderTurns, olderTurns, openThread, threadList } from "./store.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** One message result of `thread.search`. */
export type MessageHit = ResultOf<"thread.search">["results"][number];

/** How long typing must pause before the dialog asks the runtime (ms). */
export const SEARCH_DEBOUNCE_MS = 150;

/** Message results the dialog asks for: one screen. */
export const MESSAGE_RESULTS_LIMIT = 20;

/** Pages of older turns opening a result may load to reach its turn (50 turns each). */
export const OPEN_AT_TURN_MAX_PAGES = 40;

/** A part of a snippet: plain text, or a match to draw with `<mark>`. */
export interface SnippetPart {
  /** The text. */
  text: string;
  /** Whether it is a match. */
  mark: boolean;
}

/**
 * Splits a snippet at its highlights. Offsets outside the text, reversed or overlapping
 * ones are clipped or skipped, so a bad answer can never throw or duplicate text.
 *
 * @param snippet the plain text
 * @param highlights the matches' `[start, end)` offsets, in order
 * @returns the parts, covering the whole text once; empty parts are left out
 */
export function snippetParts(
  snippet: string,
  highlights: readonly { start: number; end: number }[],
): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const { start, end } of highlights) {
    const from = Math.max(at, Math.min(start, snippet.length));
    const to = Math.min(end, snippet.length);
    if (to <= from) continue;
    if (from > at) parts.push({ text: snippet.slice(at, from), mark: false });
    parts.push({ text: snippet.slice(from, to), mark: true });
    at = to;
  }
  if (at < snippet.length) parts.push({ text: snippet.slice(at), mark: false });
  return parts;
}

/** The message the feed is asked to bring into view once its thread has loaded it. */
export interface TurnFocus {
  /** The thread. */
  threadId: string;
  /** The turn, scrolled to when its message row is not rendered. */
  turnId: string;
  /** The message row to scroll to and flash. */
  itemId: string;
}

/** Set when a search result is opened; the feed consumes it (and clears it) once shown. */
export const turnFocus = signal<TurnFocus | null>(null);

/** What {@linkcode openAtTurn} uses of the app, so tests can stand in for it. */
export interface OpenAtTurnDeps {
  /** Opens the thread (its newest page of turns). */
  open: (threadId: string) => Promise<void>;
  /** Loads the next older page of the open thread. */
  loadOlder: () => Promise<void>;
  /** Whether the open thread has loaded the turn. */
  hasTurn: (threadId: string, turnId: string) => boolean;
  /** Whether older turns remain to load. */
  hasOlder: () => boolean;
  /** The branch the thread shows, when known. */
  activeBranch: (threadId: string) => string | null;
  /** The RPC call (`thread.set_active_branch`). */
  call: RpcCall;
}

const liveDeps: OpenAtTurnDeps = {
  open: (threadId) => openThread(threadId),
  loadOlder: loadOlderTurns,
  hasTurn: (threadId, turnId) => {
    const open = conversation.value;
    return open?.threadId === threadId && open.turns.some((turn) => turn.id === turnId);
  },
  hasOlder: () => olderTurns.value.cursor !== null,
  activeBranch: (threadId) => {
    const thread = threadList.value.find((candidate) => candidate.id === threadId);
    return thread ? thread.activeBranchId ?? thread.defaultBranchId : null;
  },
  call: liveCall,
};

/**
 * Opens a message result: its thread, then older pages until its turn is loaded. A turn
 * the shown branch does not hold (a message on another branch of an edited thread) is
 * reached by showing its own branch. The feed scrolls to it through {@linkcode turnFocus}.
 *
 * @param hit the result
 * @param deps the app's parts (tests pass fakes)
 * @returns whether the turn is loaded
 */
export async function openAtTurn(
  hit: Pick<MessageHit, "threadId" | "turnId" | "itemId" | "branchId">,
  deps: OpenAtTurnDeps = liveDeps,
): Promise<boolean> {
  await deps.open(hit.threadId);
  // Asked for once the thread is open, so the feed being replaced never sees it.
  turnFocus.value = { threadId: hit.threadId, turnId: hit.turnId, itemId: hit.itemId };
  if (await loadUntil(hit, deps)) return true;
  const active = deps.activeBranch(hit.threadId);
  if (active !== hit.branchId) {
    await deps.call("thread.set_active_branch", { threadId: hit.threadId, branchId: hit.branchId });
    await deps.open(hit.threadId);
    if (await loadUntil(hit, deps)) return true;
  }
  // Not reachable (gone since it was found): a later visit must not jump to it.
  turnFocus.value = null;
  return false;
}

async function loadUntil(
  hit: Pick<MessageHit, "threadId" | "turnId">,
  deps: OpenAtTurnDeps,
): Promise<boolean> {
  for (let page = 0; page < OPEN_AT_TURN_MAX_PAGES; page++) {
    if (deps.hasTurn(hit.threadId, hit.turnId)) return true;
    if (!deps.hasOlder()) return false;
    await deps.loadOlder();
  }
  return deps.hasTurn(hit.threadId, hit.turnId);
}

/** The state of the dialog's message search. */
export interface MessageSearchState {
  /** The query the results are for ("" before any). */
  query: string;
  /** Waiting for the runtime's answer (the first page, or the next with `more`). */
  loading: boolean;
  /** The results so far. */
  hits: MessageHit[];
  /** Where the next page starts; null when there is none. */
  nextCursor: string | null;
  /** The call failed: what to tell the user. */
  failed: boolean;
}

/** Nothing searched yet. */
export const IDLE_SEARCH: MessageSearchState = {
  query: "",
  loading: false,
  hits: [],
  nextCursor: null,
  failed: false,
};

/** What {@linkcode messageSearcher} returns. */
export interface MessageSearcher {
  /** Searches anew; a blank query resets to {@linkcode IDLE_SEARCH} without a call. */
  search(query: string): Promise<void>;
  /** Appends the next page of the current query, if there is one. */
  more(): Promise<void>;
}

/**
 * Runs message searches for one dialog, dropping answers to queries typed over since.
 *
 * @param onChange told each new state
 * @param call the RPC call
 * @returns the searcher
 */
export function messageSearcher(
  onChange: (state: MessageSearchState) => void,
  call: RpcCall = liveCall,
): MessageSearcher {
  let latest = 0;
  let state = IDLE_SEARCH;
  const show = (next: MessageSearchState) => onChange(state = next);
  const fetchPage = async (query: string, cursor: string | null, before: MessageHit[]) => {
    const ticket = ++latest;
    show({ query, loading: true, hits: before, nextCursor: null, failed: false });
    try {
      const page = await call("thread.search", {
        query,
        limit: MESSAGE_RESULTS_LIMIT,
        ...(cursor === null ? {} : { cursor }),
      });
      if (ticket !== latest) return;
      show({
        query,
        loading: false,
        hits: [...before, ...page.results],
        nextCursor: page.nextCursor,
        failed: false,
      });
    } catch {
      if (ticket === latest) {
        show({ query, loading: false, hits: before, nextCursor: null, failed: true });
      }
    }
  };
  return {
    search: (raw) => {
      const query = raw.trim().slice(0, SEARCH_QUERY_MAX_CHARS).trim();
      if (query === "") {
        latest++;
        show(IDLE_SEARCH);
        return Promise.resolve();
      }
      return fetchPage(query, null, []);
    },
    more: () => {
      const { query, nextCursor, loading, hits } = state;
      if (nextCursor === null || loading) return Promise.resolve();
      return fetchPage(query, nextCursor, hits);
    },
  };
}

/**
 * The sidebar's threads as a pure projection: `thread.list` pages merged with `thread.*`
 * events (a `thread.settings_changed` updates the thread's agent binding), and the running
 * and waiting indicators from `run.state_changed` / `run.settled`.
 *
 * @module
 */
import type { JournalEvent, ResultOf, Thread } from "@daedalus/client";
import { admit, land, type SeqGate } from "./seq_gate.ts";
import { isActiveStatus } from "./conversation_projection.ts";

/** The sidebar's state: threads by id and which of them have a Run going. */
export interface ThreadsState extends SeqGate {
  /** Every known thread, archived ones included. */
  byId: Readonly<Record<string, Thread>>;
  /** Threads with an unsettled Run (queued, running or waiting). */
  running: Readonly<Record<string, true>>;
  /** Threads with a Run waiting for the user's approval. */
  waiting: Readonly<Record<string, true>>;
}

/** The threads state before `thread.list` answered. */
export function emptyThreads(): ThreadsState {
  return { snapshotSeq: null, appliedSeq: 0, pending: [], byId: {}, running: {}, waiting: {} };
}

/**
 * Lands a `thread.list` page.
 *
 * @param state the current state
 * @param page the result
 * @returns the state with the page's threads and the held events after it
 */
export function applyThreadList(
  state: ThreadsState,
  page: Pick<ResultOf<"thread.list">, "threads" | "snapshotSeq">,
): ThreadsState {
  const fromPage: Record<string, Thread> = {};
  for (const thread of page.threads) fromPage[thread.id] = thread;
  if (state.snapshotSeq !== null) {
    // a later page of the same listing: threads already known are as new or newer
    return { ...state, byId: { ...fromPage, ...state.byId } };
  }
  const byId = { ...state.byId, ...fromPage };
  return land({ ...state, byId }, page.snapshotSeq, applyThreadEvent);
}

/**
 * Applies live events to the threads state.
 *
 * @param state the current state
 * @param events events in any order
 * @returns the new state
 */
export function applyThreadEvents(
  state: ThreadsState,
  events: readonly JournalEvent[],
): ThreadsState {
  return admit(state, events, applyThreadEvent);
}

function applyThreadEvent(state: ThreadsState, event: JournalEvent): ThreadsState {
  switch (event.type) {
    case "thread.created":
    case "thread.renamed":
    case "thread.archived":
    case "thread.unarchived":
    case "thread.branch_switched": {
      const thread = event.payload.thread;
      return { ...state, byId: { ...state.byId, [thread.id]: thread } };
    }
    case "branch.created": {
      // A fork becomes the branch its thread shows.
      const branch = event.payload.branch;
      const thread = state.byId[branch.threadId];
      if (!thread || thread.activeBranchId === branch.id) return state;
      const shown = { ...thread, activeBranchId: branch.id };
      return { ...state, byId: { ...state.byId, [thread.id]: shown } };
    }
    case "thread.settings_changed": {
      // Another page's (or client's) `thread.set_agent`, or an `agent.remove` moving the
      // thread to the default: the header's agent switch shows the binding as it is now.
      // The settings are the thread's whole settings, so no agentId means none bound.
      const thread = event.threadId ? state.byId[event.threadId] : undefined;
      const agentId = event.payload.settings.agentId ?? null;
      if (!thread || (thread.agentId ?? null) === agentId) return state;
      return { ...state, byId: { ...state.byId, [thread.id]: { ...thread, agentId } } };
    }
    case "thread.deleted":
      return withoutThread(state, event.payload.threadId);
    case "run.state_changed": {
      const threadId = event.threadId ?? event.payload.run.threadId;
      const running = flagged(state.running, threadId, isActiveStatus(event.payload.status));
      const waiting = flagged(state.waiting, threadId, event.payload.status === "waiting");
      if (running === state.running && waiting === state.waiting) return state;
      return { ...state, running, waiting };
    }
    case "run.settled": {
      if (!event.threadId) return state;
      const running = flagged(state.running, event.threadId, false);
      const waiting = flagged(state.waiting, event.threadId, false);
      if (running === state.running && waiting === state.waiting) return state;
      return { ...state, running, waiting };
    }
    default:
      return state;
  }
}

/**
 * The threads state without one thread (deleted): it leaves the list and its Run flags.
 *
 * @param state the threads state
 * @param threadId the thread
 * @returns the new state; the same object when the thread was not there
 */
export function withoutThread(state: ThreadsState, threadId: string): ThreadsState {
  const running = flagged(state.running, threadId, false);
  const waiting = flagged(state.waiting, threadId, false);
  if (!(threadId in state.byId) && running === state.running && waiting === state.waiting) {
    return state;
  }
  const { [threadId]: _gone, ...byId } = state.byId;
  return { ...state, byId, running, waiting };
}

/** The set with `threadId` in or out; the same object when that changes nothing. */
function flagged(
  set: Readonly<Record<string, true>>,
  threadId: string,
  on: boolean,
): Readonly<Record<string, true>> {
  if (on === (threadId in set)) return set;
  const next = { ...set };
  if (on) next[threadId] = true;
  else delete next[threadId];
  return next;
}

/**
 * The sidebar's list: threads not archived, most recently updated first.
 *
 * @param state the threads state
 * @returns the threads to show
 */
export function visibleThreads(state: ThreadsState): Thread[] {
  return Object.values(state.byId)
    .filter((thread) => thread.archivedAt === null)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
}

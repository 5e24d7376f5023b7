/**
 * What the session tools may do to conversations: the narrow capability the runtime
 * hands them through the ToolContext (built once per Run), so they never touch storage
 * or the scheduler themselves.
 *
 * @module
 */
import type { Item, RunConfig, Thread } from "@daedalus/protocol";

/** Items of a thread around an anchor (or the newest). */
export interface ThreadSlice {
  /** The items, oldest first. */
  readonly items: readonly Item[];
  /** Whether the anchor item is in the thread (true without an anchor). */
  readonly anchorFound: boolean;
  /** Whether older items exist. */
  readonly hasBefore: boolean;
  /** Whether newer items exist. */
  readonly hasAfter: boolean;
}

/** A page of the thread catalog, newest first. */
export interface ThreadPage {
  /** The threads. */
  readonly threads: readonly Thread[];
  /** Whether more follow. */
  readonly hasMore: boolean;
}

/** A Run a session tool started in another thread. */
export interface DelegatedRun {
  /** Its thread. */
  readonly threadId: string;
  /** Its turn. */
  readonly turnId: string;
  /** The run. */
  readonly runId: string;
}

/** How a delegated Run is started. */
export interface DelegationRequest {
  /** The thread to start it in. */
  threadId: string;
  /** The user message of its turn. */
  content: string;
  /** Idempotency key (derived from the tool-call item, so a replayed call starts none). */
  clientRequestId: string;
  /** Provenance stored on its user message. */
  itemData: Record<string, unknown>;
  /** Run config entries over the caller's frozen config (the delegation's lineage). */
  runConfig: Pick<RunConfig, "subagentDepth" | "parentRunId">;
  /**
   * A sub-agent's profile (`subagent` only): its Run is prepared from that profile. Absent
   * (a cross-thread message): from the target thread's own binding. Either way never
   * wider than the caller's frozen config.
   */
  agentId?: string;
}

/** How a delegated Run ended. */
export interface DelegatedOutcome {
  /** Its final status (`completed`, `failed`, `cancelled`…). */
  readonly status: string;
  /** Its assistant text in that thread, joined by newlines. */
  readonly answer: string;
}

/** Thread, history and sub-agent operations, scoped to the calling Run. */
export interface SessionOperations {
  /** Hops of the cross-thread message that started the calling Run (0 for a user's own). */
  readonly callerHops: number;
  /** Sub-agent depth of the calling Run (0 for a top-level Run). */
  readonly subagentDepth: number;
  /** Deepest sub-agent nesting allowed (`DAEDALUS_SUBAGENT_MAX_DEPTH`). */
  readonly subagentMaxDepth: number;
  /**
   * Reads items of a thread.
   *
   * @param threadId the thread
   * @param anchorItemId the item to centre on (absent: the newest)
   * @param maxItems most items
   * @returns the slice
   */
  readSlice(threadId: string, anchorItemId: string | undefined, maxItems: number): ThreadSlice;
  /**
   * Lists threads, newest first.
   *
   * @param options archived or active ones, and how many
   * @returns the page
   */
  listThreads(options: { archived: boolean; limit: number }): ThreadPage;
  /**
   * One thread.
   *
   * @param threadId the thread
   * @returns it
   * @throws {Error} with a stable `code` (`thread_not_found`) when there is none
   */
  getThread(threadId: string): Thread;
  /**
   * Whether the scheduler is running or holding a Run of the thread.
   *
   * @param threadId the thread
   * @returns true when busy
   */
  isThreadBusy(threadId: string): boolean;
  /**
   * Whether the thread has a Run that has not settled (queued or running).
   *
   * @param threadId the thread
   * @returns true when it has
   */
  hasActiveRun(threadId: string): boolean;
  /**
   * Creates a thread (and publishes its event).
   *
   * @param options its title, idempotency key, and whether it shares the caller's workspace
   * @returns the thread
   */
  createThread(
    options: { title: string | null; clientRequestId: string; sharedWorkspace?: boolean },
  ): Promise<Thread>;
  /**
   * Renames a thread.
   *
   * @param threadId the thread
   * @param title the new title
   * @returns whether it changed
   */
  renameThread(threadId: string, title: string): { changed: boolean };
  /**
   * Archives or unarchives a thread.
   *
   * @param threadId the thread
   * @param archived the new state
   * @returns whether it changed
   */
  setThreadArchived(threadId: string, archived: boolean): { changed: boolean };
  /**
   * Starts a turn in another thread (not yet scheduled), prepared from the thread's own
   * agent binding, or for a sub-agent with an `agentId` from that profile, with the
   * caller's frozen config as the ceiling.
   *
   * @param request thread, message, idempotency key, provenance, config entries, profile
   * @returns the run
   * @throws a coded error `subagent_agent_not_allowed` when the caller's profile does not
   *   allow that sub-agent profile, or it does not exist
   */
  startRun(request: DelegationRequest): Promise<DelegatedRun>;
  /**
   * Runs a started Run inline on the caller's worker and waits for it.
   *
   * @param run the run
   * @param signal the caller's cancellation
   * @returns how it ended
   */
  waitForRun(run: DelegatedRun, signal: AbortSignal): Promise<DelegatedOutcome>;
  /**
   * Queues a started Run; cancelling the caller cancels it.
   *
   * @param run the run
   * @param signal the caller's cancellation
   */
  queueRun(run: DelegatedRun, signal: AbortSignal): void;
  /**
   * Queued Runs of this Run's still queued or running.
   *
   * @returns how many
   */
  liveQueuedRuns(): number;
}

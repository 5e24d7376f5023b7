/**
 * The session operations of one Run over the state store and the scheduler: reading
 * threads, changing them (committed here; the store publishes), and starting Runs elsewhere
 * — a sub-agent's with its profile, a cross-thread message's with the target thread's own
 * binding, each never wider than the caller's frozen config — inline on the caller's
 * worker when it waits (no deadlock when every worker is busy), queued otherwise,
 * cancelled with the caller.
 *
 * @module
 */
import type { RunConfig, Thread } from "@daedalus/protocol";
import {
  createThread,
  getThread,
  hasActiveRun,
  listThreads,
  readRunScope,
  readThreadSlice,
  renameThread,
  setThreadArchived,
  startTurn,
  type StateStore,
} from "@daedalus/storage";
import { type SessionOperations, ToolError } from "@daedalus/tools";
import type { Scheduler } from "../../scheduler/scheduler.ts";
import { coded } from "./_coded.ts";

/** What the session operations share across Runs. */
export interface SessionDeps {
  /** The state store. */
  store: StateStore;
  /** The scheduler (queue, inline runs, cancel). */
  scheduler: Scheduler;
  /** Where managed workspaces are made. */
  workspacesRoot: string;
  /** Deepest sub-agent nesting (`DAEDALUS_SUBAGENT_MAX_DEPTH`). */
  subagentMaxDepth: number;
  /**
   * Prepares a delegated Run from a profile (services/run_preparation.ts); absent: it
   * runs with the caller's frozen config.
   */
  prepareDelegated?: (request: DelegatedPreparation) => Promise<RunConfig>;
}

/** What a delegated Run (a sub-agent's, a cross-thread message's) is prepared from. */
export interface DelegatedPreparation {
  /** The thread it runs in. */
  threadId: string;
  /** The profile it runs (a sub-agent's); absent: the thread's own binding. */
  agentId?: string;
  /** The caller's frozen config: the delegated Run never gets more than it. */
  parent: Readonly<RunConfig>;
}

/** The calling Run's facts, read once when it starts. */
export interface SessionRunFacts {
  /** The run. */
  runId: string;
  /** Its thread. */
  thread: Thread;
  /** Its frozen config (a delegated Run starts from it). */
  config: Readonly<RunConfig>;
  /** Hops of the cross-thread message that started it (0 for a user's own). */
  callerHops: number;
}

/**
 * The session operations of a Run.
 *
 * @param deps store, scheduler, limits
 * @param run the calling Run
 * @returns the operations
 */
export function createSessionOperations(
  deps: SessionDeps,
  run: SessionRunFacts,
): SessionOperations {
  const { store, scheduler } = deps;
  const queued = new Set<string>();
  const depth = run.config.subagentDepth;
  return {
    callerHops: run.callerHops,
    subagentDepth: depth ?? 0,
    subagentMaxDepth: deps.subagentMaxDepth,
    readSlice: coded((threadId, anchorItemId, maxItems) =>
      store.read((db) => readThreadSlice(db, { threadId, anchorItemId, maxItems }))
    ),
    listThreads: coded((options) => store.read((db) => listThreads(db, options))),
    getThread: coded((threadId) => store.read((db) => getThread(db, threadId)).thread),
    isThreadBusy: (threadId) => scheduler.isThreadBusy(threadId),
    hasActiveRun: coded((threadId) => store.read((db) => hasActiveRun(db, threadId))),
    createThread: coded(async (options) => {
      const root = run.thread.workspace?.rootUri;
      const created = await createThread(store, {
        title: options.title,
        clientRequestId: options.clientRequestId,
        workspacesRoot: deps.workspacesRoot,
        workspace: options.sharedWorkspace && root
          ? { rootUri: root, name: run.thread.workspace?.name }
          : undefined,
      });
      return created.result.thread;
    }),
    renameThread: coded((threadId, title) => {
      const renamed = renameThread(store, threadId, title, "user");
      return { changed: renamed.result.changed };
    }),
    setThreadArchived: coded((threadId, archived) => {
      const changed = setThreadArchived(store, threadId, archived);
      return { changed: changed.result.changed };
    }),
    startRun: coded(async (request) => {
      // A delegated Run has no caller to run client-side tools: it gets none of them.
      const { clientTools: _clientTools, ...config } = run.config;
      // A message to another thread runs that thread's profile, not the sender's: the
      // sender's config is only the ceiling (and the fallback without a preparer).
      const prepared = deps.prepareDelegated === undefined
        ? config
        : request.agentId === undefined
        ? withoutClientTools(
          await deps.prepareDelegated({ threadId: request.threadId, parent: run.config }),
        )
        : await prepareChild(deps.prepareDelegated, run.config, request.threadId, request.agentId);
      const started = startTurn(store, {
        threadId: request.threadId,
        content: request.content,
        providerId: prepared.providerId,
        modelId: prepared.modelId,
        clientRequestId: request.clientRequestId,
        runConfig: { ...prepared, ...request.runConfig },
        itemData: request.itemData,
      });
      const { threadId, turnId, runId } = started.result;
      return { threadId, turnId, runId };
    }),
    waitForRun: coded(async (child, signal) => {
      await scheduler.runInline(child.runId, child.threadId, signal);
      const { status } = store.read((db) => readRunScope(db, child.runId));
      const slice = store.read((db) =>
        readThreadSlice(db, { threadId: child.threadId, maxItems: 41 })
      );
      const answer = slice.items
        .filter((i) => i.runId === child.runId && i.role === "assistant" && i.kind === "message")
        .map((i) => i.content).join("\n");
      return { status, answer };
    }),
    queueRun: (child, signal) => {
      queued.add(child.runId);
      signal.addEventListener("abort", () => scheduler.cancel(child.runId), { once: true });
      scheduler.enqueue(child.runId, child.threadId);
    },
    liveQueuedRuns: () => {
      for (const child of queued) {
        const { status } = store.read((db) => readRunScope(db, child));
        if (status !== "queued" && status !== "running" && status !== "waiting") {
          queued.delete(child);
        }
      }
      return queued.size;
    },
  };
}

/**
 * A sub-agent's config: its profile must be one the caller's profile allows (its
 * `subagents`; absent or `[]`: any), and it is prepared from that profile with the
 * caller's model, mode, tools and skills as the ceiling.
 */
async function prepareChild(
  prepare: (request: DelegatedPreparation) => Promise<RunConfig>,
  parent: Readonly<RunConfig>,
  threadId: string,
  agentId: string,
): Promise<RunConfig> {
  const allowed = parent.agent?.profile.subagents;
  if (allowed?.length && !allowed.includes(agentId)) {
    throw new ToolError(
      "subagent_agent_not_allowed",
      `subagent_agent_not_allowed: this agent may delegate only to ${
        allowed.join(", ")
      }, not to ${agentId}`,
    );
  }
  return withoutClientTools(await prepare({ threadId, agentId, parent }));
}

/** A delegated Run has no caller to run client-side tools: it gets none of them. */
function withoutClientTools(config: RunConfig): RunConfig {
  const { clientTools: _clientTools, ...rest } = config;
  return rest;
}

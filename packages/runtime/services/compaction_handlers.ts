/**
 * `thread.update_settings` (a thread's own compaction setting over config.yaml's),
 * `thread.context` (how much of the window the last step used: the PWA's meter) and
 * `thread.compact` (summarize the thread's active history now): one tool-less summary
 * call with the prompt Runs compact with, on the model of the branch's last Run,
 * journaled as `thread.compacted` naming the newest turn it covers. Later Runs whose
 * history contains that turn see the summary in place of it and every older turn.
 *
 * The thread is held in the scheduler meanwhile: a Run of it that is queued, running or
 * waiting refuses the compaction (`turn_active`), and a `turn.start` during it stays
 * queued until the summary is journaled, so it is built with it.
 *
 * @module
 */
import {
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  type ThreadCompaction,
  type Turn,
  type ValidParamsOf,
} from "@daedalus/protocol";
import {
  beginThreadCompaction,
  compactionCuts,
  completeThreadCompaction,
  effectiveCompaction,
  hasActiveRun,
  readActiveBranchId,
  readCompaction,
  readLastBranchRun,
  readThread,
  readThreadCompactions,
  readThreadContextUse,
  readThreadSettings,
  readTurnsNewestFirst,
  recordModelResponse,
  type StateStore,
  type ThreadCompactionRecord,
  updateThreadSettings,
} from "@daedalus/storage";
import type { FrozenCompaction } from "@daedalus/protocol";
import { ProviderError } from "../providers/provider.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import type { Scheduler } from "../scheduler/scheduler.ts";
import { compactionUnits, summaryRequest, summaryText } from "../context/compaction.ts";
import { turnToMessages } from "../context/history.ts";
import { estimateMessagesTokens, estimateTextTokens } from "../context/token_estimate.ts";
import { HISTORY_PAGE_TURNS } from "../context/limits.ts";
import { collectText } from "../loop/collect_text.ts";
import type { Handled } from "./services.ts";

/** What the compaction handlers need. */
export interface CompactionHandlerDeps {
  /** The state store. */
  store: StateStore;
  /** Holds the thread while it is compacted. */
  scheduler: Pick<Scheduler, "holdThread">;
  /** Resolves the model of the branch's last Run. */
  registry: Pick<ProviderRegistry, "resolveModel">;
  /** The context window of a model, when the provider registry knows a better one. */
  contextWindow?: (providerId: string, modelId: string) => number | undefined;
  /** Configured credentials: the summary is redacted before it is kept. */
  protectedValues?: { redact(text: string): string };
  /** The local date usage counts for. */
  today: () => string;
}

/** The handlers. */
export type CompactionHandlers = {
  [M in "thread.update_settings" | "thread.compact" | "thread.context"]: (
    params: ValidParamsOf<M>,
  ) => Promise<Handled<ResultOf<M>>>;
};

type CompactResult = ResultOf<"thread.compact">;

/**
 * The compaction setting a Run of the thread freezes now: the thread's own fields over
 * config.yaml's. A config.yaml that cannot be read leaves the default (0.9, on), as
 * every other section a Run freezes does.
 *
 * @param store the state store
 * @param configPath `<home>/config.yaml`
 * @param threadId the thread
 * @returns the setting with its source
 * @throws {StoreError} `thread_not_found`
 */
export async function frozenCompaction(
  store: StateStore,
  configPath: string,
  threadId: string,
): Promise<FrozenCompaction> {
  const config = await readCompaction(configPath).catch(() => ({ threshold: 0.9, enabled: true }));
  const own = store.read((db) => readThreadSettings(db, threadId)).compaction;
  return effectiveCompaction(config, own);
}

/**
 * Builds the handlers.
 *
 * @param deps store, scheduler, registry, clock
 * @returns a handler per method
 */
export function createCompactionHandlers(deps: CompactionHandlerDeps): CompactionHandlers {
  const inFlight = new Map<string, Promise<Handled<CompactResult>>>();
  return {
    "thread.update_settings": (params) => {
      const committed = updateThreadSettings(deps.store, params.threadId, params.compaction);
      return Promise.resolve({
        result: {
          threadId: params.threadId,
          settings: committed.result.settings,
          changed: committed.result.changed,
          event: committed.events[0] ?? null,
        },
      });
    },
    "thread.context": (params) => {
      const use = deps.store.read((db) => {
        readThread(db, params.threadId);
        return readThreadContextUse(db, params.threadId);
      });
      return Promise.resolve({
        result: { threadId: params.threadId, use: use === null ? null : { ...use } },
      });
    },
    "thread.compact": (params) => {
      const key = `${params.threadId}\u0000${params.clientRequestId}`;
      const running = inFlight.get(key);
      if (running) return running;
      const work = compactThread(deps, params).finally(() => inFlight.delete(key));
      inFlight.set(key, work);
      return work;
    },
  };
}

async function compactThread(
  deps: CompactionHandlerDeps,
  params: ValidParamsOf<"thread.compact">,
): Promise<Handled<CompactResult>> {
  const { store } = deps;
  const { threadId, clientRequestId } = params;
  const compactions = store.read((db) => {
    readThread(db, threadId);
    return readThreadCompactions(db, threadId);
  });
  const done = compactions.find((c) => c.clientRequestId === clientRequestId);
  if (done) return { result: compacted(threadId, done, null) };
  const release = deps.scheduler.holdThread(threadId);
  if (release === null || store.read((db) => hasActiveRun(db, threadId))) {
    release?.();
    throw new RpcError(
      RPC_ERROR_CODES.invalidParams,
      "turn_active",
      "A Run of this thread is queued, running or waiting: stop it or wait until it settles, " +
        "then compact",
      { field: "threadId" },
    );
  }
  try {
    return await summarize(deps, threadId, clientRequestId, compactions);
  } finally {
    release();
  }
}

async function summarize(
  deps: CompactionHandlerDeps,
  threadId: string,
  clientRequestId: string,
  compactions: readonly ThreadCompactionRecord[],
): Promise<Handled<CompactResult>> {
  const { store } = deps;
  const branchId = store.read((db) => readActiveBranchId(db, threadId));
  const cuts = compactionCuts(compactions);
  const { turns, previous } = uncompactedTurns(store, threadId, branchId, cuts);
  const lastRun = store.read((db) => readLastBranchRun(db, branchId));
  const items = turns.flatMap((turn) => turn.runs.flatMap((run) => run.items));
  const units = compactionUnits(items);
  const through = turns.at(-1);
  if (lastRun === null || through === undefined || units.length === 0) {
    return { result: { threadId, compacted: false, compaction: null, event: null } };
  }
  const { provider, model } = deps.registry.resolveModel(lastRun.providerId, lastRun.modelId);
  const contextWindow = deps.contextWindow?.(lastRun.providerId, lastRun.modelId) ??
    model.contextWindow;
  const tokensBefore = estimateMessagesTokens(turns.flatMap(turnToMessages)) +
    (previous ? estimateTextTokens(previous.summary) : 0);
  const begun = beginThreadCompaction(store, lastRun.runId, {
    threadCompaction: true,
    throughTurnId: through.id,
    summarizedUnits: units.length,
    previousThroughTurnId: previous?.throughTurnId ?? null,
  }).result;
  const request = summaryRequest(lastRun.modelId, previous?.summary ?? null, units, contextWindow);
  let text;
  try {
    text = await collectText(provider, request, new AbortController().signal, deps.protectedValues);
  } catch (error) {
    const category = error instanceof ProviderError ? error.category : "unknown";
    recordModelResponse(store, begun.runId, {
      callOrdinal: begun.callOrdinal,
      outcome: "failed",
      usage: null,
      responseModelId: null,
      requestId: null,
      reasonCode: `provider_${category}`,
      activityDate: deps.today(),
    });
    const said = error instanceof ProviderError ? error.message : "the model call failed";
    throw new RpcError(
      RPC_ERROR_CODES.internalError,
      "compaction_failed",
      `The summary could not be made: ${deps.protectedValues?.redact(said) ?? said}`,
      {},
      { cause: error },
    );
  }
  const summary = summaryText(text.text);
  const compaction: ThreadCompaction = {
    throughTurnId: through.id,
    summary,
    tokensBefore,
    tokensAfter: estimateTextTokens(summary),
    providerId: lastRun.providerId,
    modelId: lastRun.modelId,
  };
  const committed = completeThreadCompaction(store, begun, {
    callOrdinal: begun.callOrdinal,
    outcome: "completed",
    usage: text.usage,
    responseModelId: text.responseModelId,
    requestId: text.requestId,
    activityDate: deps.today(),
  }, { ...compaction, threadId, branchId, clientRequestId });
  return {
    result: { threadId, compacted: true, compaction, event: committed.events.at(-1) ?? null },
  };
}

/**
 * The branch's turns after its newest compaction (oldest first), read back newest first
 * page by page until a compacted turn, and that compaction.
 */
function uncompactedTurns(
  store: StateStore,
  threadId: string,
  branchId: string,
  cuts: ReadonlyMap<string, ThreadCompactionRecord>,
): { turns: Turn[]; previous: ThreadCompactionRecord | null } {
  const turns: Turn[] = [];
  let before = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const page = store.read((db) =>
      readTurnsNewestFirst(db, {
        threadId,
        branchId,
        beforeOrdinal: before,
        limit: HISTORY_PAGE_TURNS,
      })
    );
    for (const turn of page) {
      const cut = cuts.get(turn.id);
      if (cut) return { turns: turns.reverse(), previous: cut };
      turns.push(turn);
    }
    if (page.length < HISTORY_PAGE_TURNS) return { turns: turns.reverse(), previous: null };
    before = page.at(-1)!.ordinal;
  }
}

function compacted(
  threadId: string,
  record: ThreadCompactionRecord,
  event: CompactResult["event"],
): CompactResult {
  const { seq: _seq, clientRequestId: _id, branchId: _branch, ...compaction } = record;
  return { threadId, compacted: true, compaction, event };
}

/**
 * The input of each model call of one Run, and the Run's context revisions: when
 * the Run's own part outgrows its frozen compaction threshold (default 90 % of the
 * window) it is compacted (one tool-less summary call, a new ContextRevision,
 * `context.compacted`), possibly several times. With compaction off, a Run whose input
 * no longer fits fails with `context_budget_exceeded` and says how to go on. Earlier
 * turns that a `thread.compact` summarized are replaced by that summary.
 *
 * @module
 */
import type { Item, RunReasonCode } from "@daedalus/protocol";
import type { RecalledMemory, RunProgress } from "@daedalus/storage";
import {
  type Committed,
  compactionCuts,
  completeCompaction,
  readResumedItems,
  readRunItems,
  readThreadCompactions,
  readTurnsNewestFirst,
  recordModelInput,
  recordModelResponse,
  type StateStore,
} from "@daedalus/storage";
import {
  type Provider,
  type ProviderContentPart,
  ProviderError,
  type ProviderMessage,
  type ProviderTool,
} from "../providers/provider.ts";
import { isVisionModel } from "../providers/model_defaults.ts";
import { renderAttachments } from "../attachments/render.ts";
import { buildContext } from "../context/context_builder.ts";
import { estimateToolsTokens } from "../context/token_estimate.ts";
import {
  planCompaction,
  retainedUserItems,
  summaryRequest,
  summaryText,
} from "../context/compaction.ts";
import type { HistoryCut } from "../context/history.ts";
import { collectText } from "./collect_text.ts";
import { COMPACTION_THRESHOLD_DEFAULT } from "@daedalus/protocol";

/** What a Run whose input no longer fits is told, by whether it could compact. */
export const CONTEXT_BUDGET_MESSAGES = {
  off: "The conversation no longer fits the model's context window and compaction is " +
    "off for this thread. To continue: use Compact now, turn compaction on (Settings › " +
    "General, or the thread's settings), or start a new thread.",
  on: "The conversation no longer fits the model's context window, even after " +
    "compaction. To continue: use Compact now, or start a new thread.",
} as const;

/** What a Run's context needs. */
export interface RunContextDeps {
  /** The state store. */
  store: StateStore;
  /** The local date for usage. */
  today: () => string;
  /** Configured credentials: the model's answer is redacted before it is kept. */
  protectedValues?: { redact(text: string): string };
}

/** The Run's frozen facts the context depends on. */
export interface RunFacts {
  runId: string;
  threadId: string;
  branchId: string;
  turnOrdinal: number;
  modelId: string;
  contextWindow: number;
  systemText: string;
  identityHash: unknown;
  /** What went into the system prompt (instruction files, skills), for the audit. */
  audit?: Record<string, unknown>;
  /** Memories recalled for this Run (frozen at its start). */
  recalled?: readonly RecalledMemory[];
  /** The tools each execution call offers (counted in the context estimate). */
  tools?: readonly ProviderTool[];
  /** The Run's frozen compaction setting; absent: 0.9 of the window, on. */
  compaction?: { threshold: number; enabled: boolean };
}

/** One prepared model call. */
export type PreparedCall =
  | { ok: true; callOrdinal: number; messages: ProviderMessage[] }
  | {
    ok: false;
    reason: RunReasonCode;
    /** What the provider said when a summary call failed (redacted by the adapter). */
    errorMessage?: string | null;
  };

/** Item statuses after which an item never changes. */
const TERMINAL_ITEM_STATUSES: ReadonlySet<Item["status"]> = new Set([
  "completed",
  "failed",
  "cancelled",
]);

interface Revision {
  revision: number;
  summary: string | null;
  boundaryOrdinal: number;
}

/** The context of one Run across its model calls. */
export class RunContext {
  readonly #deps: RunContextDeps;
  #facts: RunFacts;
  #provider: Provider;
  #callOrdinal = 0;
  #revision: Revision = { revision: 1, summary: null, boundaryOrdinal: 0 };
  #recordedRevision = 0;
  #items: Item[] = [];
  /** The items of the Runs this one continues (`run.resume`), read once: they are settled. */
  #resumed: Item[] | null = null;
  readonly #historyPages = new Map<string, ReturnType<typeof readTurnsNewestFirst>>();
  /** The thread's compactions by the turn each covers, read once (none can start meanwhile). */
  #historyCuts: Map<string, HistoryCut> | null = null;
  readonly #renderedAttachments = new Map<string, ProviderContentPart[] | null>();

  /**
   * @param deps store, clock
   * @param facts the Run's ids, model and window
   * @param provider the Run's provider (for summary calls)
   */
  constructor(deps: RunContextDeps, facts: RunFacts, provider: Provider) {
    this.#deps = deps;
    this.#facts = facts;
    this.#provider = provider;
  }

  /** The Run's model. */
  get modelId(): string {
    return this.#facts.modelId;
  }

  /**
   * Continues a Run that stopped to wait for the user: its call ordinals go on from the
   * journal's last, and its context revision (a compaction's summary and boundary) is the
   * one recorded, so the next call sees what the Run saw before it waited.
   *
   * @param progress the Run's progress (`readRunProgress`)
   */
  resume(progress: RunProgress): void {
    this.#callOrdinal = progress.lastCallOrdinal;
    if (progress.revision !== null) {
      this.#revision = { ...progress.revision };
      this.#recordedRevision = progress.revision.revision;
    }
  }

  /**
   * Continues on another model (the Run's fallback): later calls, compactions included,
   * are sized for its window and go to its provider.
   *
   * @param model the model id, its context window and its provider
   */
  useModel(model: { modelId: string; contextWindow: number; provider: Provider }): void {
    this.#facts = { ...this.#facts, modelId: model.modelId, contextWindow: model.contextWindow };
    this.#provider = model.provider;
  }

  /** Model calls made so far (each call takes the next ordinal). */
  nextCallOrdinal(): number {
    return ++this.#callOrdinal;
  }

  /**
   * Prepares an execution call: compacts first when due, records the StepInput.
   *
   * @param step the step ordinal
   * @param signal cancellation
   * @returns the messages, or why the Run cannot continue
   */
  async prepare(step: number, signal: AbortSignal): Promise<PreparedCall> {
    const enabled = this.#facts.compaction?.enabled ?? true;
    let context = await this.#build();
    if (context.compactionDue && enabled) {
      const compacted = await this.#compact(signal);
      if (!compacted.ok) return compacted;
      context = await this.#build();
    }
    if (context.overBudget) {
      return {
        ok: false,
        reason: "context_budget_exceeded",
        errorMessage: CONTEXT_BUDGET_MESSAGES[enabled ? "on" : "off"],
      };
    }
    const callOrdinal = this.nextCallOrdinal();
    const firstUse = this.#revision.revision > this.#recordedRevision;
    this.#recordedRevision = this.#revision.revision;
    this.#commit(recordModelInput(this.#deps.store, this.#facts.runId, {
      callOrdinal,
      stepOrdinal: step,
      purpose: "execution",
      contextRevision: firstUse ? this.#revisionRecord() : null,
      stepInput: { callOrdinal, contextRevision: this.#revision.revision, ...context.stepInput },
    }));
    return { ok: true, callOrdinal, messages: context.messages };
  }

  /**
   * The current input as built now (for a completion check).
   *
   * @returns the messages
   */
  async messages(): Promise<ProviderMessage[]> {
    return (await this.#build()).messages;
  }

  #commit<T>(committed: Committed<T>): T {
    return committed.result; // the store publishes every commit itself
  }

  #revisionRecord(): Record<string, unknown> {
    return {
      revision: this.#revision.revision,
      identityHash: this.#facts.identityHash,
      summary: this.#revision.summary,
      summarizedThroughOrdinal: this.#revision.boundaryOrdinal,
      ...this.#facts.audit,
    };
  }

  /**
   * Earlier turns cannot change while this Run is active (one active Run per thread),
   * so each history page is read once per Run.
   */
  #readTurns = (beforeOrdinal: number, limit: number) => {
    const key = `${beforeOrdinal}:${limit}`;
    let page = this.#historyPages.get(key);
    if (page === undefined) {
      page = this.#deps.store.read((db) =>
        readTurnsNewestFirst(db, {
          threadId: this.#facts.threadId,
          branchId: this.#facts.branchId,
          beforeOrdinal,
          limit,
        })
      );
      this.#historyPages.set(key, page);
    }
    return page;
  };

  /** A thread compaction happens only while no Run of the thread is active: read once. */
  #cuts(): Map<string, HistoryCut> {
    this.#historyCuts ??= this.#deps.store.read((db) =>
      compactionCuts(readThreadCompactions(db, this.#facts.threadId))
    );
    return this.#historyCuts;
  }

  /**
   * The Run's items, extended per step: items that reached a terminal status never change
   * again, so only those from the first unsettled one on are read back.
   */
  #runItems(): Item[] {
    const cached = this.#items;
    const firstOpen = cached.findIndex((item) => !TERMINAL_ITEM_STATUSES.has(item.status));
    const keep = firstOpen === -1 ? cached.length : firstOpen;
    const fromOrdinal = keep === 0 ? 0 : cached[keep - 1]!.ordinal + 1;
    const fresh = this.#deps.store.read((db) => readRunItems(db, this.#facts.runId, fromOrdinal));
    this.#items = keep === cached.length && fresh.length === 0
      ? cached
      : [...cached.slice(0, keep), ...fresh];
    return this.#items;
  }

  /**
   * The settled items of the Runs this Run continues, each tool call that has no result
   * followed by one that says it was interrupted: the model learns the call may or may not
   * have had its effect, and is never handed a call without its answer.
   */
  #resumedItems(): Item[] {
    if (this.#resumed !== null) return this.#resumed;
    const earlier = this.#deps.store.read((db) => readResumedItems(db, this.#facts.runId));
    const answered = new Set(
      earlier.filter((item) => item.kind === "tool_result").map((item) =>
        String(item.data.toolCallItemId)
      ),
    );
    this.#resumed = earlier.flatMap((item) =>
      item.kind !== "tool_call" || answered.has(item.id) ? [item] : [item, interrupted(item)]
    );
    return this.#resumed;
  }

  /** Attachments are immutable: each item's are rendered (images read) once per Run. */
  async #attachmentParts(items: readonly Item[]): Promise<Map<string, ProviderContentPart[]>> {
    const missing = items.filter((item) => !this.#renderedAttachments.has(item.id));
    if (missing.length > 0) {
      const rendered = await renderAttachments(missing, isVisionModel(this.#facts.modelId));
      for (const item of missing) {
        this.#renderedAttachments.set(item.id, rendered.get(item.id) ?? null);
      }
    }
    const parts = new Map<string, ProviderContentPart[]>();
    for (const item of items) {
      const rendered = this.#renderedAttachments.get(item.id);
      if (rendered) parts.set(item.id, rendered);
    }
    return parts;
  }

  async #build() {
    const items = [...this.#resumedItems(), ...this.#runItems()];
    const boundary = this.#revision.boundaryOrdinal;
    const visible = boundary === 0 ? items : [
      ...retainedUserItems(items.filter((item) => item.ordinal <= boundary)),
      ...items.filter((item) => item.ordinal > boundary),
    ];
    return buildContext({
      systemText: this.#revision.summary === null
        ? this.#facts.systemText
        : `${this.#facts.systemText}\n\n${this.#revision.summary}`,
      turnOrdinal: this.#facts.turnOrdinal,
      currentItems: visible,
      readHistoryPage: this.#readTurns,
      contextWindow: this.#facts.contextWindow,
      attachmentParts: await this.#attachmentParts(visible),
      recalled: this.#facts.recalled,
      tools: this.#facts.tools,
      compactionThreshold: this.#facts.compaction?.threshold ?? COMPACTION_THRESHOLD_DEFAULT,
      historyCuts: this.#cuts(),
    });
  }

  async #compact(
    signal: AbortSignal,
  ): Promise<{ ok: true } | { ok: false; reason: RunReasonCode; errorMessage: string | null }> {
    const items = this.#runItems().filter((item) => item.ordinal > this.#revision.boundaryOrdinal);
    // The tool schemas travel with every later call: the kept tail must fit beside them.
    const toolTokens = estimateToolsTokens(this.#facts.tools ?? []);
    const plan = planCompaction(items, Math.max(0, this.#facts.contextWindow - toolTokens));
    if (!plan) return { ok: true }; // nothing older than the tail: the budget check decides
    const callOrdinal = this.nextCallOrdinal();
    const request = summaryRequest(
      this.#facts.modelId,
      this.#revision.summary,
      plan.summarized,
      this.#facts.contextWindow,
    );
    this.#commit(recordModelInput(this.#deps.store, this.#facts.runId, {
      callOrdinal,
      stepOrdinal: null,
      purpose: "compression",
      contextRevision: null,
      stepInput: {
        callOrdinal,
        summarizedUnits: plan.summarized.length,
        boundaryOrdinal: plan.boundaryOrdinal,
      },
    }));
    try {
      const result = await collectText(
        this.#provider,
        request,
        signal,
        this.#deps.protectedValues,
      );
      const revision = {
        revision: this.#revision.revision + 1,
        summary: summaryText(result.text),
        boundaryOrdinal: plan.boundaryOrdinal,
      };
      // The summary call's end and the revision it made: one transaction.
      this.#commit(completeCompaction(this.#deps.store, this.#facts.runId, {
        callOrdinal,
        outcome: "completed",
        usage: result.usage,
        responseModelId: result.responseModelId,
        requestId: result.requestId,
        activityDate: this.#deps.today(),
      }, revision.revision));
      this.#revision = revision;
      return { ok: true };
    } catch (error) {
      const cancelled = signal.aborted;
      const category = error instanceof ProviderError ? error.category : "unknown";
      const reason = (cancelled ? "cancelled" : `provider_${category}`) as RunReasonCode;
      this.#commit(recordModelResponse(this.#deps.store, this.#facts.runId, {
        callOrdinal,
        outcome: cancelled ? "cancelled" : "failed",
        usage: null,
        responseModelId: null,
        requestId: null,
        reasonCode: reason,
        activityDate: this.#deps.today(),
      }));
      const errorMessage = !cancelled && error instanceof ProviderError ? error.message : null;
      return { ok: false, reason, errorMessage };
    }
  }
}

/** The answer a resumed Run's model reads for a call of an earlier Run that has none. */
function interrupted(call: Item): Item {
  return {
    ...call,
    id: `${call.id}:interrupted`,
    kind: "tool_result",
    role: "tool",
    status: "failed",
    content: `The ${String(call.data.toolId ?? "tool")} call was interrupted before its result ` +
      "was recorded (the run stopped); it may or may not have taken effect. Check before " +
      "repeating it.",
    data: { toolCallItemId: call.id, isError: true, errorCode: "interrupted" },
  };
}

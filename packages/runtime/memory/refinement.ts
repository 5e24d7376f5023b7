/**
 * Background memory refinement (seed 000 §memory, MemoryRefinementService): after each
 * completed Run, the Run's own provider and model read the thread's newly completed
 * user/assistant Items and a bounded catalog of active memories, and answer with strict
 * JSON candidates. Duplicates are skipped, corrections become new revisions, the rest
 * new memories with `auto_extracted` provenance. One task per thread at a time (the
 * cursor must advance in order); notifications meanwhile run once more afterwards.
 * Each extraction waits for the slot shared with the other auxiliary calls, and is
 * dropped when it gets there if refinement was switched off (config.yaml's
 * `auxiliary.memory_refinement`, or `DAEDALUS_MEMORY_REFINEMENT=0`).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { MemoryKind, MemoryScope } from "@daedalus/protocol";
import { MemoryError, type MemoryStore, type ResolvedItem } from "@daedalus/storage";
import type { Provider, ProviderMessage } from "../providers/provider.ts";
import { collectText } from "../loop/collect_text.ts";
import { type ActiveMemory, classifyCandidate } from "./governance.ts";
import { AuxiliaryQueue } from "../providers/auxiliary_queue.ts";

/** Most Items read per extraction; a few turns, not the whole thread. */
export const REFINEMENT_INPUT_MAX_ITEMS = 40;
/** Most Item content bytes (UTF-8) read per extraction; keeps the call small and cheap. */
export const REFINEMENT_INPUT_MAX_BYTES = 24 * 1024;
/** Most memories in the catalog shown to the model. */
export const REFINEMENT_CATALOG_MAX_MEMORIES = 32;
/** Longest catalog entry, in characters; longer content is cut. */
export const REFINEMENT_CATALOG_ENTRY_MAX_CHARS = 512;
/** Most catalog bytes (UTF-8 of the entries' JSON). */
export const REFINEMENT_CATALOG_MAX_BYTES = 8 * 1024;
/** Most candidates accepted from one answer; more makes the whole answer invalid. */
export const REFINEMENT_CANDIDATES_MAX = 4;
/** Longest candidate content, in characters. */
export const REFINEMENT_CANDIDATE_MAX_CHARS = 512;

/** Where an Item sits in its thread, in reading order (memory.db's extraction cursor). */
export interface RefinementPosition {
  turnOrdinal: number;
  runCreatedAt: string;
  runId: string;
  itemOrdinal: number;
  itemId: string;
}

/** A completed user or assistant message Item of a thread's default branch. */
export interface RefinementItem {
  /** The Item. */
  itemId: string;
  /** Its turn. */
  turnId: string;
  /** Who wrote it. */
  role: "user" | "assistant";
  /** Its text. */
  content: string;
  /** Its cursor position. */
  position: RefinementPosition;
}

/** How much `readCompletedItems` may return. */
export interface RefinementReadLimits {
  /** Most Items. */
  maxItems: number;
  /** Most content bytes (UTF-8). */
  maxBytes: number;
}

/** The extraction cursors of memory.db (`ExtractionCursors` in storage). */
export interface RefinementCursors {
  /** The thread's cursor; `position` null when nothing was read yet. */
  read(threadId: string): { position: RefinementPosition | null };
  /** Records that extraction started. */
  recordAttempt(threadId: string, at: string): void;
  /** Moves the cursor after a successful extraction. */
  advance(threadId: string, position: RefinementPosition, at: string): void;
}

/** What one extraction did, for the log. */
export interface RefinementLogEntry {
  threadId: string;
  runId: string;
  /** `extracted`, or why nothing was written. */
  outcome:
    | "extracted"
    | "no_items"
    | "provider_unavailable"
    | "invalid_output"
    | "protected_value"
    | "failed";
  written: number;
  merged: number;
  skipped_duplicate: number;
  dropped: number;
  /** The failure message, for `failed`. */
  detail?: string;
}

/** The Run that just completed. */
export interface RefinementNotification {
  runId: string;
  threadId: string;
  providerId: string;
  modelId: string;
}

/** What refinement needs. */
export interface MemoryRefinementOptions {
  /** memory.db. */
  memoryStore: MemoryStore;
  /** memory.db's extraction cursors (`new ExtractionCursors(memoryStore.database)`). */
  cursors: RefinementCursors;
  /** Completed user/assistant message Items of the default branch after `after`, in order. */
  readCompletedItems: (
    threadId: string,
    after: RefinementPosition | null,
    limits: RefinementReadLimits,
  ) => readonly RefinementItem[] | Promise<readonly RefinementItem[]>;
  /** Finds a provider. */
  provider: (providerId: string) => Provider | undefined;
  /** Configured credentials: a candidate carrying one writes nothing. */
  protectedValues: { find(text: string): boolean };
  /** The workspace scope key of a thread; null when it has no workspace. */
  workspaceKeyOf: (threadId: string) => string | null;
  /** Receives one entry per extraction. Default: nothing. */
  log?: (entry: RefinementLogEntry) => void;
  /**
   * `false` turns refinement off; a function is asked right before each extraction (a
   * setting that may change while the runtime runs). Default `true`.
   */
  enabled?: boolean | (() => boolean | Promise<boolean>);
  /** The slot shared with the other auxiliary calls. Default: a slot of its own. */
  queue?: AuxiliaryQueue;
  /** The clock. Default `() => new Date()`. */
  now?: () => Date;
}

const Candidate = z.object({
  content: z.string().trim().min(1).max(REFINEMENT_CANDIDATE_MAX_CHARS),
  kind: z.enum(["fact", "preference", "relationship", "project"]),
  scope: z.enum(["global", "workspace"]),
  sourceItemId: z.string().min(1),
  memoryId: z.string().min(1).optional(),
});
const Answer = z.object({ memories: z.array(Candidate).max(REFINEMENT_CANDIDATES_MAX) });
type Candidate = z.infer<typeof Candidate>;

type Counts = Pick<RefinementLogEntry, "written" | "merged" | "skipped_duplicate" | "dropped">;

interface ThreadQueue {
  /** The running task. */
  running: Promise<void>;
  /** The latest notification that arrived while it ran. */
  next: RefinementNotification | null;
}

/** Refines memories in the background after each completed Run. */
export class MemoryRefinement {
  readonly #options: MemoryRefinementOptions;
  readonly #threads = new Map<string, ThreadQueue>();
  readonly #controller = new AbortController();
  readonly #queue: AuxiliaryQueue;

  /** @param options store, cursors, item reader, providers, credentials, workspace keys */
  constructor(options: MemoryRefinementOptions) {
    this.#options = options;
    this.#queue = options.queue ?? new AuxiliaryQueue();
  }

  /**
   * Schedules one extraction for the Run's thread; while one runs, the latest
   * notification waits and runs after it.
   *
   * @param notification the Run that just completed
   */
  afterRun(notification: RefinementNotification): void {
    if (this.#options.enabled === false || this.#controller.signal.aborted) return;
    const queued = this.#threads.get(notification.threadId);
    if (queued) {
      queued.next = notification;
      return;
    }
    const entry: ThreadQueue = { running: Promise.resolve(), next: notification };
    entry.running = this.#drain(entry, notification.threadId);
    this.#threads.set(notification.threadId, entry);
  }

  /** Resolves once no extraction is running or queued (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.#threads.size > 0) {
      await Promise.allSettled([...this.#threads.values()].map((entry) => entry.running));
    }
  }

  /** Cancels running extractions, drops queued ones and waits for them to stop. */
  async close(): Promise<void> {
    this.#controller.abort();
    for (const entry of this.#threads.values()) entry.next = null;
    await this.idle();
  }

  async #drain(entry: ThreadQueue, threadId: string): Promise<void> {
    await Promise.resolve(); // let afterRun register the entry first
    try {
      while (entry.next !== null && !this.#controller.signal.aborted) {
        const notification = entry.next;
        entry.next = null;
        await this.#queue.enqueue({
          kind: "memory_refinement",
          stillWanted: () => this.#wanted(),
          run: () => this.#refineLogged(notification),
        });
      }
    } finally {
      this.#threads.delete(threadId);
    }
  }

  /** Whether refinement is still on; a switch that cannot be read counts as off. */
  async #wanted(): Promise<boolean> {
    if (this.#controller.signal.aborted) return false;
    const { enabled } = this.#options;
    if (typeof enabled !== "function") return enabled !== false;
    try {
      return await enabled();
    } catch (error) {
      console.error(`memory refinement skipped: ${(error as Error).message}`);
      return false;
    }
  }

  async #refineLogged(notification: RefinementNotification): Promise<void> {
    const counts: Counts = { written: 0, merged: 0, skipped_duplicate: 0, dropped: 0 };
    const log = (outcome: RefinementLogEntry["outcome"], detail?: string) =>
      this.#options.log?.({
        threadId: notification.threadId,
        runId: notification.runId,
        outcome,
        ...counts,
        ...(detail === undefined ? {} : { detail }),
      });
    try {
      log(await this.#refine(notification, counts));
    } catch (error) {
      if (this.#controller.signal.aborted) return; // shutting down: not a failure
      log("failed", error instanceof Error ? error.message : String(error));
    }
  }

  async #refine(
    notification: RefinementNotification,
    counts: Counts,
  ): Promise<RefinementLogEntry["outcome"]> {
    const { threadId } = notification;
    const options = this.#options;
    const provider = options.provider(notification.providerId);
    if (!provider) return "provider_unavailable";
    const after = options.cursors.read(threadId).position;
    const items = boundItems(
      await options.readCompletedItems(threadId, after, {
        maxItems: REFINEMENT_INPUT_MAX_ITEMS,
        maxBytes: REFINEMENT_INPUT_MAX_BYTES,
      }),
    );
    const last = items.at(-1);
    if (last === undefined) return "no_items";
    options.cursors.recordAttempt(threadId, this.#timestamp());
    const workspaceKey = options.workspaceKeyOf(threadId);
    const catalog = this.#catalog(workspaceKey);
    const result = await collectText(provider, {
      modelId: notification.modelId,
      tools: [],
      reasoningEffort: null,
      messages: refinementMessages(items, catalog),
    }, this.#controller.signal);
    this.#controller.signal.throwIfAborted(); // a provider that ignored the signal writes nothing
    const answer = parseAnswer(result.text);
    if (answer === null) return "invalid_output";
    if (answer.some((candidate) => carriesProtectedValue(candidate, options.protectedValues))) {
      return "protected_value";
    }
    this.#apply(notification, answer, items, catalog, workspaceKey, counts);
    options.cursors.advance(threadId, last.position, this.#timestamp());
    return "extracted";
  }

  #apply(
    notification: RefinementNotification,
    answer: readonly Candidate[],
    items: readonly RefinementItem[],
    catalog: ActiveMemory[],
    workspaceKey: string | null,
    counts: Counts,
  ): void {
    const store = this.#options.memoryStore;
    const byId = new Map(items.map((item) => [item.itemId, item]));
    const resolveItem = (itemId: string): ResolvedItem | null => {
      const item = byId.get(itemId);
      if (!item) return null;
      // The digest as state.db's readItemSource computes it for explicit citations.
      const contentDigest = `sha256:${createHash("sha256").update(item.content).digest("hex")}`;
      return { threadId: notification.threadId, turnId: item.turnId, itemId, contentDigest };
    };
    answer.forEach((candidate, index) => {
      const scope = scopeOf(candidate.scope, workspaceKey);
      if (scope === null || !byId.has(candidate.sourceItemId)) {
        counts.dropped += 1;
        return;
      }
      const active = this.#withExplicit(catalog, candidate.memoryId);
      const decision = classifyCandidate({ ...candidate, scope }, active);
      if (decision.action === "skip_duplicate") {
        counts.skipped_duplicate += 1;
        return;
      }
      const clientRequestId = `refine:${notification.runId}:${index}`;
      const source = {
        type: "session_item",
        itemId: candidate.sourceItemId,
        sourceKind: "auto_extracted",
      } as const;
      try {
        const written = decision.action === "merge"
          ? store.correct({
            memoryId: decision.memoryId,
            expectedRevision: decision.expectedRevision,
            content: candidate.content,
            clientRequestId,
            source,
          }, { resolveItem })
          : store.create(
            { kind: candidate.kind, scope, content: candidate.content, clientRequestId, source },
            { resolveItem },
          );
        remember(catalog, {
          id: written.memoryId,
          kind: decision.action === "merge"
            ? (active.find((memory) => memory.id === decision.memoryId)?.kind ?? candidate.kind)
            : candidate.kind,
          scope,
          revision: written.resultingRevision,
          content: candidate.content,
        });
        if (decision.action === "merge") counts.merged += 1;
        else counts.written += 1;
      } catch (error) {
        if (!(error instanceof MemoryError)) throw error;
        counts.dropped += 1; // a revision conflict or replayed request: the next Run retries
      }
    });
  }

  /** Active global memories and those of the thread's workspace, newest first, bounded. */
  #catalog(workspaceKey: string | null): ActiveMemory[] {
    const store = this.#options.memoryStore;
    const scopes: MemoryScope[] = [{ type: "global", key: null }];
    if (workspaceKey !== null) scopes.push({ type: "workspace", key: workspaceKey });
    const summaries = scopes.flatMap((scope) =>
      store.list({ state: "active", scope, limit: REFINEMENT_CATALOG_MAX_MEMORIES }).memories
    ).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
    const catalog: ActiveMemory[] = [];
    let bytes = 0;
    for (const summary of summaries.slice(0, REFINEMENT_CATALOG_MAX_MEMORIES)) {
      const memory = activeMemory(store, summary.id);
      if (memory === null) continue;
      const size = utf8Bytes(
        JSON.stringify({
          ...memory,
          content: memory.content.slice(0, REFINEMENT_CATALOG_ENTRY_MAX_CHARS),
        }),
      );
      if (bytes + size > REFINEMENT_CATALOG_MAX_BYTES) break;
      bytes += size;
      catalog.push(memory);
    }
    return catalog;
  }

  /** The catalog plus the model's explicit target when it is active but not listed. */
  #withExplicit(catalog: ActiveMemory[], memoryId: string | undefined): ActiveMemory[] {
    if (memoryId === undefined || catalog.some((memory) => memory.id === memoryId)) {
      return catalog;
    }
    const explicit = activeMemory(this.#options.memoryStore, memoryId);
    return explicit === null ? catalog : [...catalog, explicit];
  }

  #timestamp(): string {
    return (this.#options.now?.() ?? new Date()).toISOString();
  }
}

/** The items in order, cut at the first that would pass the count or byte budget. */
function boundItems(items: readonly RefinementItem[]): RefinementItem[] {
  const bounded: RefinementItem[] = [];
  let bytes = 0;
  for (const item of items.slice(0, REFINEMENT_INPUT_MAX_ITEMS)) {
    bytes += utf8Bytes(item.content);
    if (bytes > REFINEMENT_INPUT_MAX_BYTES && bounded.length > 0) break;
    bounded.push(item);
  }
  return bounded;
}

/** The candidates of a strict JSON answer (one optional code fence tolerated), or null. */
function parseAnswer(text: string): Candidate[] | null {
  const body = text.trim().replace(/^```(?:json)?\s*\n([\s\S]*)\n```$/u, "$1");
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  const parsed = Answer.safeParse(value);
  return parsed.success ? parsed.data.memories : null;
}

function carriesProtectedValue(candidate: Candidate, values: { find(text: string): boolean }) {
  return [candidate.content, candidate.sourceItemId, candidate.memoryId ?? ""]
    .some((text) => values.find(text));
}

function scopeOf(scope: "global" | "workspace", workspaceKey: string | null): MemoryScope | null {
  if (scope === "global") return { type: "global", key: null };
  return workspaceKey === null ? null : { type: "workspace", key: workspaceKey };
}

function activeMemory(store: MemoryStore, memoryId: string): ActiveMemory | null {
  try {
    const memory = store.get(memoryId);
    if (memory.state !== "active" || memory.content === null) return null;
    return {
      id: memory.id,
      kind: memory.kind as MemoryKind,
      scope: memory.scope,
      revision: memory.revision,
      content: memory.content,
    };
  } catch (error) {
    if (error instanceof MemoryError) return null; // a made-up id: treated as absent
    throw error;
  }
}

/** Adds or replaces a memory in the working catalog so later candidates see it. */
function remember(catalog: ActiveMemory[], memory: ActiveMemory): void {
  const index = catalog.findIndex((entry) => entry.id === memory.id);
  if (index === -1) catalog.push(memory);
  else catalog[index] = memory;
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

const INSTRUCTIONS = `You maintain a user's long-term memory. Read the conversation excerpt and the
catalog of memories already saved. Propose at most ${REFINEMENT_CANDIDATES_MAX} durable facts,
preferences, relationships or project details worth remembering across conversations; skip
anything already in the catalog, small talk, one-off requests and secrets. To correct or extend a
catalog memory, give its memoryId. Use scope "workspace" only for facts about the current
project. sourceItemId is the id of the item the fact comes from. Reply with strict JSON only:
{"memories":[{"content":"...","kind":"fact"|"preference"|"relationship"|"project",` +
  `"scope":"global"|"workspace","sourceItemId":"...","memoryId":"optional"}]}
Each content at most ${REFINEMENT_CANDIDATE_MAX_CHARS} characters. Reply {"memories":[]} when
there is nothing to remember.`;

/** The extraction request: instructions, then the catalog and the Items as JSON data. */
function refinementMessages(
  items: readonly RefinementItem[],
  catalog: readonly ActiveMemory[],
): ProviderMessage[] {
  const data = {
    catalog: catalog.map((memory) => ({
      id: memory.id,
      kind: memory.kind,
      scope: memory.scope.type,
      revision: memory.revision,
      content: memory.content.slice(0, REFINEMENT_CATALOG_ENTRY_MAX_CHARS),
    })),
    items: items.map((item) => ({ id: item.itemId, role: item.role, content: item.content })),
  };
  return [
    { role: "system", content: INSTRUCTIONS },
    { role: "user", content: JSON.stringify(data) },
  ];
}

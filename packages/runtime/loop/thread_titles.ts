/**
 * Automatic thread titles: after a thread's first Run completes, one short call on
 * the same provider and model names the thread — unless the user already named it
 * (a user title is never replaced). The call waits for the shared auxiliary slot, and is
 * dropped when it gets there if titles were switched off (config.yaml's
 * `auxiliary.thread_titles`, or `DAEDALUS_THREAD_TITLES=0`) or the user named the thread.
 *
 * @module
 */
import {
  isThreadUserNamed,
  readRunConfig,
  readRunScope,
  readTurnsNewestFirst,
  renameThread,
  type StateStore,
} from "@daedalus/storage";
import type { Provider } from "../providers/provider.ts";
import { AuxiliaryQueue } from "../providers/auxiliary_queue.ts";
import { collectText } from "./collect_text.ts";
import { stripThinkBlock } from "../providers/openai/think_tags.ts";

/** Longest automatic title, in characters. */
export const AUTO_TITLE_MAX_CHARS = 80;

/** What titling needs. */
export interface ThreadTitlerDeps {
  /** The state store. */
  store: StateStore;
  /** Finds a provider. */
  provider: (providerId: string) => Provider | undefined;
  /** Configured credentials: a title never carries one. */
  protectedValues?: { redact(text: string): string };
  /** The slot shared with the other auxiliary calls. Default: a slot of its own. */
  queue?: AuxiliaryQueue;
  /** Whether titles are switched on, asked right before each call. Default: always. */
  enabled?: () => boolean | Promise<boolean>;
}

/** Names threads after their first Run, in the background. */
export class ThreadTitler {
  readonly #deps: ThreadTitlerDeps;
  readonly #pending = new Set<Promise<void>>();
  readonly #controller = new AbortController();
  readonly #queue: AuxiliaryQueue;

  /** @param deps store, providers, the shared slot and the switch */
  constructor(deps: ThreadTitlerDeps) {
    this.#deps = deps;
    this.#queue = deps.queue ?? new AuxiliaryQueue();
  }

  /**
   * Queues titling when `runId` was its thread's first Run.
   *
   * @param runId a Run that just completed
   */
  afterRun(runId: string): void {
    const task = this.#queue.enqueue({
      kind: "thread_title",
      stillWanted: () => this.#wanted(runId),
      run: () => this.#title(runId),
    }).then(() => {}, (error) => {
      if (this.#controller.signal.aborted) return; // shutting down: not a failure
      console.error(`thread title for run ${runId} failed: ${(error as Error).message}`);
    });
    this.#pending.add(task);
    task.finally(() => this.#pending.delete(task));
  }

  /** Stops pending title calls and waits for them. */
  async close(): Promise<void> {
    this.#controller.abort();
    await Promise.allSettled([...this.#pending]);
  }

  /** Whether a title for the Run's thread would still be used. */
  async #wanted(runId: string): Promise<boolean> {
    if (this.#controller.signal.aborted) return false;
    const { store } = this.#deps;
    const scope = store.read((db) => readRunScope(db, runId));
    if (scope.turnOrdinal !== 1) return false;
    if (store.read((db) => isThreadUserNamed(db, scope.threadId))) return false;
    return await (this.#deps.enabled?.() ?? true);
  }

  async #title(runId: string): Promise<void> {
    const { store } = this.#deps;
    const scope = store.read((db) => readRunScope(db, runId));
    if (scope.turnOrdinal !== 1) return;
    const config = store.read((db) => readRunConfig(db, runId));
    const provider = this.#deps.provider(config.providerId);
    if (!provider) return;
    const [turn] = store.read((db) =>
      readTurnsNewestFirst(db, {
        threadId: scope.threadId,
        branchId: scope.branchId,
        beforeOrdinal: 2,
        limit: 1,
      })
    );
    const items = turn?.runs.flatMap((run) => run.items) ?? [];
    const question = items.find((item) => item.role === "user")?.content ?? "";
    const answer = items.filter((item) => item.kind === "message" && item.role === "assistant")
      .map((item) => item.content).join("\n");
    const result = await collectText(provider, {
      modelId: config.modelId,
      tools: [],
      reasoningEffort: null,
      messages: [
        {
          role: "system",
          content: "Name this conversation: reply with a title of 2 to 6 words in the user's " +
            "language, no quotes, no trailing punctuation, nothing else.",
        },
        {
          role: "user",
          content: `User: ${question.slice(0, 2000)}\n\nAssistant: ${answer.slice(0, 2000)}`,
        },
      ],
    }, this.#controller.signal);
    const title = cleanTitle(this.#deps.protectedValues?.redact(result.text) ?? result.text);
    if (!title) return;
    renameThread(store, scope.threadId, title, "auto");
  }
}

/**
 * A model's answer as a title: its first line, without quotes or trailing
 * punctuation, at most 80 characters; empty when nothing usable is left.
 *
 * @param text the model's answer
 * @returns the title, or "" when there is none
 */
export function cleanTitle(text: string): string {
  // A reasoning model's <think> block is no title, even from a provider that left it in
  // the text (the OpenAI-compatible adapter already streams it as reasoning).
  const line = stripThinkBlock(text).trim().split(/\r?\n/)[0] ?? "";
  const title = line.replace(/^(title:\s*)/i, "").replace(
    /^["'“”‘’「『]+|["'“”‘’」』.。!！?？,，;；:：]+$/g,
    "",
  )
    .trim();
  return title.slice(0, AUTO_TITLE_MAX_CHARS).trim();
}

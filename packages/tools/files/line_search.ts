/**
 * Where grep's matching runs. RE2 is linear in the text, but linear can still be long (a
 * large pattern over an 8 MiB line), and compiling a large pattern takes time too. On the
 * runtime's own thread (full_access) that would stall every connection, so there the
 * search runs in a Worker that is terminated when the call is cancelled or runs out of time.
 * Inside a Worker already (the read_only/workspace_write sandbox) it runs in place, checking
 * the time budget between lines and pausing now and then so that a cancel gets through.
 * Either way the budget counts matching time only: walking and reading files are
 * asynchronous and block nothing, so a large tree is not cut short by its I/O.
 *
 * @module
 */
import { ToolError } from "../tool.ts";
import { GREP_SEARCH_MAX_MS, GREP_WORKER_START_MAX_MS } from "../limits.ts";
import { compileLinePattern, matchingLineIndexes, searchTimedOut } from "./line_pattern.ts";

/** A compiled search, ready for file texts. Dispose of it when done. */
export interface LineSearch extends Disposable {
  /**
   * The 0-based indexes of the matching lines of a file's text.
   *
   * @param text the file's text
   * @param max most indexes returned
   * @returns the indexes, ascending
   * @throws {ToolError} `grep_timeout`, `cancelled`
   */
  matchingLines(text: string, max: number): Promise<number[]>;
}

/** How {@linkcode openLineSearch} matches. */
export interface LineSearchOptions {
  /** Case-insensitive matching. */
  ignoreCase: boolean;
  /** Cancels the search. */
  signal: AbortSignal;
  /**
   * Most time matching may take over the whole search, once compiled (default
   * {@linkcode GREP_SEARCH_MAX_MS}); walking and reading files do not count, they do not block.
   */
  timeLimitMs?: number;
}

/**
 * Compiles a pattern (see {@linkcode compileLinePattern}) where it can be matched safely.
 *
 * @param pattern the pattern as the model wrote it
 * @param options case, cancellation, time limit
 * @returns the search
 * @throws {ToolError} the pattern's errors, `grep_timeout`, `cancelled`
 */
export async function openLineSearch(
  pattern: string,
  options: LineSearchOptions,
): Promise<LineSearch> {
  const timeLimitMs = options.timeLimitMs ?? GREP_SEARCH_MAX_MS;
  if (runsInWorker()) {
    const compiled = compileLinePattern(pattern, options.ignoreCase);
    let budgetMs = timeLimitMs;
    return {
      matchingLines: async (text, max) => {
        if (options.signal.aborted) throw cancelled();
        const started = performance.now();
        try {
          const deadline = started + budgetMs;
          return await matchingLineIndexes(compiled, text, max, {
            deadline,
            signal: options.signal,
          });
        } finally {
          budgetMs -= performance.now() - started;
        }
      },
      [Symbol.dispose]: () => {},
    };
  }
  // Starting the Worker and compiling get their own time limit: on a busy machine the start
  // alone can take seconds, which the search proper should not be charged for.
  const search = new WorkerLineSearch(GREP_WORKER_START_MAX_MS, options.signal);
  try {
    await search.request({ pattern, ignoreCase: options.ignoreCase });
  } catch (error) {
    search[Symbol.dispose]();
    throw error;
  }
  search.setBudget(timeLimitMs);
  return search;
}

/** A search in its own Worker, stopped by terminating it. */
class WorkerLineSearch implements LineSearch {
  readonly #worker: Worker;
  #budgetMs: number;
  readonly #signal: AbortSignal;
  #stopped: ToolError | null = null;

  constructor(startLimitMs: number, signal: AbortSignal) {
    this.#budgetMs = startLimitMs;
    this.#signal = signal;
    this.#worker = new Worker(new URL("./line_search_worker.ts", import.meta.url), {
      type: "module",
      deno: { permissions: "none" },
    });
  }

  /** Gives the search proper its whole matching time. */
  setBudget(timeLimitMs: number): void {
    this.#budgetMs = timeLimitMs;
  }

  async matchingLines(text: string, max: number): Promise<number[]> {
    const reply = await this.request({ text, max });
    return (reply as { lines: number[] }).lines;
  }

  /** Sends one message and waits for its answer, the end of the time budget or cancellation. */
  request(message: unknown): Promise<unknown> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    if (this.#signal.aborted) return Promise.reject(this.#stop(cancelled()));
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        this.#budgetMs -= performance.now() - started;
        this.#signal.removeEventListener("abort", onAbort);
        this.#worker.onmessage = null;
        this.#worker.onerror = null;
        outcome();
      };
      const onAbort = () => settle(() => reject(this.#stop(cancelled())));
      const timer = setTimeout(
        () => settle(() => reject(this.#stop(searchTimedOut()))),
        Math.max(0, this.#budgetMs),
      );
      this.#signal.addEventListener("abort", onAbort, { once: true });
      this.#worker.onmessage = (event: MessageEvent) => {
        const data = event.data as { error?: { code: string; message: string } };
        settle(() =>
          data.error ? reject(new ToolError(data.error.code, data.error.message)) : resolve(data)
        );
      };
      this.#worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        const failed = new ToolError("tool_failed", `The search worker failed: ${event.message}`);
        settle(() => reject(this.#stop(failed)));
      };
      this.#worker.postMessage(message);
    });
  }

  [Symbol.dispose](): void {
    this.#stop(new ToolError("cancelled", "The search is closed"));
  }

  #stop(reason: ToolError): ToolError {
    if (this.#stopped === null) {
      this.#stopped = reason;
      this.#worker.terminate();
    }
    return reason;
  }
}

function runsInWorker(): boolean {
  return typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== "undefined";
}

function cancelled(): ToolError {
  return new ToolError("cancelled", "The search was cancelled");
}

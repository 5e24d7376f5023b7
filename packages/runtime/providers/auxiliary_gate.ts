/**
 * Auxiliary model calls (thread titles, memory refinement) yield to the user: on a
 * provider that has a user Run active they wait, and they start once it has none.
 * A single-slot local server (llama.cpp with one slot) answers one request at a time,
 * so an auxiliary call running beside a Run would queue the user behind it.
 *
 * An auxiliary call that is already streaming when a user Run starts on its provider
 * is aborted, and the user Run waits (briefly, {@linkcode AUXILIARY_ABORT_WAIT_MS}) until
 * it has stopped; the call is retried whole once the provider is idle again. Letting it
 * finish was the alternative, but a memory-refinement prompt is up to ~32 KB, which a
 * local model needs many seconds to read, and the user would wait for all of it; closing
 * the connection frees the slot at once (llama.cpp, vLLM and Ollama cancel a request
 * whose client went away). The price is the aborted call's tokens, spent again on the
 * retry — small next to a user's turn, and capped at {@linkcode AUXILIARY_PREEMPTIONS_MAX}
 * retries, after which the call fails like any provider error (a title is then not set;
 * refinement keeps its cursor and reads the same Items after the next Run).
 *
 * Auxiliary callers want the answer whole, so a gated provider buffers each attempt and
 * yields its events only once the attempt finished: an aborted attempt leaves no trace.
 *
 * "The same provider" means the same provider id: two ids pointing at one server are
 * not known to share it.
 *
 * @module
 */
import type { Provider, ProviderEvent, ProviderRequest } from "./provider.ts";
import { AUXILIARY_ABORT_WAIT_MS, AUXILIARY_PREEMPTIONS_MAX } from "../limits.ts";

/** An auxiliary call was pre-empted by user Runs more often than allowed. */
export class AuxiliaryPreemptedError extends Error {
  /** Stable error code. */
  readonly code = "auxiliary_preempted";

  /**
   * @param providerId the provider whose user Runs kept pre-empting the call
   * @param attempts how many attempts were aborted
   */
  constructor(providerId: string, attempts: number) {
    super(`Auxiliary call on provider ${providerId} gave way to user Runs ${attempts} times`);
    this.name = "AuxiliaryPreemptedError";
  }
}

interface Attempt {
  controller: AbortController;
  stopped: Promise<void>;
}

/** Which providers have user Runs active; holds auxiliary calls back while they do. */
export class AuxiliaryGate {
  readonly #userRuns = new Map<string, number>();
  readonly #idleWaiters = new Map<string, Set<() => void>>();
  readonly #attempts = new Map<string, Set<Attempt>>();

  /**
   * Runs `work` (a user Run) with its provider marked busy: auxiliary calls on the
   * provider wait meanwhile, and those already streaming are aborted first.
   *
   * @param providerId the Run's provider
   * @param work executes the Run
   * @returns what `work` returns
   */
  async duringUserRun<T>(providerId: string, work: () => Promise<T>): Promise<T> {
    this.#userRuns.set(providerId, (this.#userRuns.get(providerId) ?? 0) + 1);
    try {
      await this.#abortAttempts(providerId);
      return await work();
    } finally {
      const left = (this.#userRuns.get(providerId) ?? 1) - 1;
      if (left > 0) this.#userRuns.set(providerId, left);
      else {
        this.#userRuns.delete(providerId);
        for (const wake of this.#idleWaiters.get(providerId) ?? []) wake();
      }
    }
  }

  /**
   * How many user Runs are active on a provider.
   *
   * @param providerId the provider
   * @returns the count
   */
  userRunsOn(providerId: string): number {
    return this.#userRuns.get(providerId) ?? 0;
  }

  /**
   * The provider as auxiliary callers should use it: each `stream` waits until the
   * provider has no user Run, is aborted and retried when one starts, and yields the
   * events of the one attempt that finished.
   *
   * @param providerId the id user Runs name the provider by
   * @param provider the provider
   * @returns the gated provider (same id and models)
   */
  auxiliary(providerId: string, provider: Provider): Provider {
    const collect = (request: ProviderRequest, signal: AbortSignal) =>
      this.#collect(providerId, provider, request, signal);
    return {
      id: provider.id,
      models: provider.models,
      async *stream(request: ProviderRequest, signal: AbortSignal) {
        yield* await collect(request, signal);
      },
    };
  }

  async #collect(
    providerId: string,
    provider: Provider,
    request: ProviderRequest,
    signal: AbortSignal,
  ): Promise<ProviderEvent[]> {
    for (let preempted = 0;; preempted++) {
      if (preempted > AUXILIARY_PREEMPTIONS_MAX) {
        throw new AuxiliaryPreemptedError(providerId, preempted);
      }
      await this.#idle(providerId, signal);
      const outcome = await this.#attempt(providerId, provider, request, signal);
      if (outcome !== "preempted") return outcome;
    }
  }

  /** One attempt, registered so a starting user Run can abort it. */
  async #attempt(
    providerId: string,
    provider: Provider,
    request: ProviderRequest,
    signal: AbortSignal,
  ): Promise<ProviderEvent[] | "preempted"> {
    const controller = new AbortController();
    const forward = () => controller.abort(signal.reason);
    signal.addEventListener("abort", forward, { once: true });
    if (signal.aborted) forward();
    let stop = () => {};
    const attempt: Attempt = { controller, stopped: new Promise((resolve) => stop = resolve) };
    const attempts = this.#attempts.get(providerId) ?? new Set();
    this.#attempts.set(providerId, attempts.add(attempt));
    const events: ProviderEvent[] = [];
    try {
      for await (const event of provider.stream(request, controller.signal)) events.push(event);
      return events;
    } catch (error) {
      if (controller.signal.aborted && !signal.aborted) return "preempted";
      throw error;
    } finally {
      signal.removeEventListener("abort", forward);
      attempts.delete(attempt);
      if (attempts.size === 0) this.#attempts.delete(providerId);
      stop();
    }
  }

  /** Aborts the provider's auxiliary attempts and waits (bounded) until they stopped. */
  async #abortAttempts(providerId: string): Promise<void> {
    const attempts = [...this.#attempts.get(providerId) ?? []];
    if (attempts.length === 0) return;
    for (const attempt of attempts) attempt.controller.abort("preempted by a user Run");
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(attempts.map((attempt) => attempt.stopped)),
      new Promise((resolve) => timer = setTimeout(resolve, AUXILIARY_ABORT_WAIT_MS)),
    ]);
    clearTimeout(timer);
  }

  /**
   * Resolves once the provider has no user Run, checked again one macrotask after the
   * last Run ended so a queued Run that the scheduler starts right away goes first.
   */
  async #idle(providerId: string, signal: AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      if (this.userRunsOn(providerId) === 0) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        signal.throwIfAborted();
        if (this.userRunsOn(providerId) === 0) return;
      }
      await this.#nextIdle(providerId, signal);
    }
  }

  #nextIdle(providerId: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#idleWaiters.get(providerId) ?? new Set();
      this.#idleWaiters.set(providerId, waiters);
      const wake = () => {
        waiters.delete(wake);
        if (waiters.size === 0) this.#idleWaiters.delete(providerId);
        signal.removeEventListener("abort", wake);
        resolve();
      };
      waiters.add(wake);
      signal.addEventListener("abort", wake, { once: true });
    });
  }
}

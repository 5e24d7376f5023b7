/**
 * Gives garbage back between Runs (scheduler/between_runs.ts): when the JS heap has grown
 * since the last collection by {@linkcode HEAP_TRIM_GROWTH_BYTES} or a quarter of what was
 * live then, whichever is more, one full V8 collection.
 *
 * Why: V8 collects its old generation only when that reaches a limit sized for the machine
 * (hundreds of MiB on 24 GiB), and Deno never tells it the process is idle, so a runtime
 * that runs Run after Run keeps every dead object until then. Measured over 1,000 warm tool
 * turns: heap used 25 → 69 MiB and RSS 98 → 167 MiB, of which about 40 MiB of heap was
 * garbage (a forced collection brings it back to ~25 MiB); with this (and the compacting
 * flavour below), RSS ends at 107–113 MiB (packages/runtime/README.md, "RSS"). The
 * collection is paid only between Runs, and the quarter keeps it rare for a large
 * heap (a collection per 8 MiB of growth of a 25 MiB heap, per 50 MiB of a 200 MiB one).
 *
 * The collector is V8's `gc()`, which `--v8-flags=--expose-gc` (scripts/runtime_flags.ts)
 * exposes; where it is not (the runtime embedded in another program), this does nothing.
 *
 * @module
 */
import { HEAP_TRIM_GROWTH_BYTES } from "../limits.ts";

/** Options of {@linkcode HeapTrimmer}; tests inject every part. */
export interface HeapTrimOptions {
  /** The full collection; default V8's exposed `gc`, null when it is not exposed. */
  collect?: (() => void) | null;
  /** Bytes of JS heap in use; default `Deno.memoryUsage().heapUsed`. */
  heapUsed?: () => number;
  /** The least growth since the last collection that makes one worth it. */
  growthBytes?: number;
}

/**
 * How the collection is asked for: a synchronous full collection of the "last resort"
 * flavour, which also compacts the heap and gives its emptied pages back. A regular one
 * frees the garbage but keeps the pages: over 1,000 tool turns the heap's committed size
 * went 34 → 40 MiB for 25 MiB live, and RSS ended near 120 MiB; with this it stays at
 * 25–27 MiB and RSS near 110 MiB. It takes about twice as long (55–75 ms against 25–33 ms
 * for a 25 MiB heap, measured in the runtime), once per 8 MiB of growth, between Runs.
 * A V8 that does not know the options runs a plain full collection.
 */
const GC_OPTIONS = { type: "major", execution: "sync", flavor: "last-resort" } as const;

/** The exposed V8 collector, or null. */
export function exposedGc(): (() => void) | null {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === "function"
    ? () => (gc as (options: typeof GC_OPTIONS) => void)(GC_OPTIONS)
    : null;
}

/** Collects the heap once it has grown enough; see the module notes. */
export class HeapTrimmer {
  readonly #collect: (() => void) | null;
  readonly #heapUsed: () => number;
  readonly #growthBytes: number;
  /** Heap in use right after the last collection (or at start). */
  #live: number;
  #collections = 0;

  /**
   * @param options (for tests) the collector, the heap reader and the threshold
   */
  constructor(options: HeapTrimOptions = {}) {
    this.#collect = options.collect === undefined ? exposedGc() : options.collect;
    this.#heapUsed = options.heapUsed ?? (() => Deno.memoryUsage().heapUsed);
    this.#growthBytes = options.growthBytes ?? HEAP_TRIM_GROWTH_BYTES;
    this.#live = this.#collect === null ? 0 : this.#heapUsed();
  }

  /** Collections made so far. */
  get collections(): number {
    return this.#collections;
  }

  /** Collects now if the heap has grown enough since the last collection. */
  collectIfGrown(): void {
    if (this.#collect === null) return;
    const worthIt = Math.max(this.#growthBytes, this.#live / 4);
    if (this.#heapUsed() - this.#live < worthIt) return;
    this.#collect();
    this.#collections++;
    this.#live = this.#heapUsed();
  }
}

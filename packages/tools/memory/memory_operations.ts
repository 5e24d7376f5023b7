/**
 * What the `memory` tool may do to long-term memory: the runtime's memory store behind a
 * narrow capability (workspace scope key, provenance and revisions are the runtime's).
 *
 * @module
 */
import type { MemoryKind } from "@daedalus/protocol";

/** A recalled memory. */
export interface MemoryHit {
  /** Its id. */
  readonly memoryId: string;
  /** Its revision. */
  readonly revision: number;
  /** What kind of memory. */
  readonly kind: MemoryKind;
  /** Its text. */
  readonly content: string;
}

/** The outcome of a memory write (the store's result, shown to clients as details). */
export interface MemoryWrite {
  /** The memory. */
  readonly memoryId: string;
  /** Its revision after the write. */
  readonly resultingRevision: number;
  /** Everything else the store reports. */
  readonly [key: string]: unknown;
}

/** Long-term memory operations of one Run (provenance: the user message that started it). */
export interface MemoryOperations {
  /**
   * Searches memories of the global scope and the Run's workspace.
   *
   * @param query the search text
   * @param limit most memories
   * @returns the matches and how many more the limit left out
   */
  search(query: string, limit: number): { memories: readonly MemoryHit[]; omittedCount: number };
  /**
   * Saves a memory.
   *
   * @param request kind, scope, text, idempotency key
   * @returns the write
   */
  save(
    request: {
      kind: MemoryKind;
      scope: "global" | "workspace";
      content: string;
      clientRequestId: string;
    },
  ): MemoryWrite;
  /**
   * Replaces a memory's text (at its current revision).
   *
   * @param request the memory, its new text, idempotency key
   * @returns the write
   */
  update(request: { memoryId: string; content: string; clientRequestId: string }): MemoryWrite;
  /**
   * Forgets a memory (at its current revision).
   *
   * @param request the memory, idempotency key
   * @returns the write
   */
  forget(request: { memoryId: string; clientRequestId: string }): MemoryWrite;
}

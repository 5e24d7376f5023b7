/**
 * What background refinement does with one candidate memory, decided deterministically
 * against the active memories: skip an exact duplicate (same normalized content, kind and
 * scope), merge a correction into an existing memory as a new revision (the model's
 * explicit `memoryId` first, else the most similar memory of the same kind and scope), or
 * create a new one.
 *
 * @example
 * ```ts
 * classifyCandidate(
 *   { content: "Prefers dark mode in the editor and terminal", kind: "preference", scope },
 *   [{ id, kind: "preference", scope, revision: 1, content: "Prefers dark mode in the editor" }],
 * ); // { action: "merge", memoryId: id, expectedRevision: 1 }
 * ```
 *
 * @module
 */
import type { MemoryKind, MemoryScope } from "@daedalus/protocol";
import { distinctMemoryTokens } from "@daedalus/storage";

/**
 * Least token similarity (Jaccard over distinct recall tokens, inclusive) at which a
 * candidate is taken as a correction of an existing memory: "lives in Berlin" →
 * "lives in Munich" shares half its tokens and should revise, not duplicate.
 */
export const MEMORY_MERGE_SIMILARITY_MIN = 0.5;

/** A memory the model proposed. */
export interface MemoryCandidate {
  /** The proposed content. */
  content: string;
  /** Its kind. */
  kind: MemoryKind;
  /** Its scope, with the workspace key already resolved by the runtime. */
  scope: MemoryScope;
  /** The memory the model says this corrects, if any. */
  memoryId?: string;
}

/** An active memory at its current revision. */
export interface ActiveMemory {
  /** The memory. */
  id: string;
  /** Its kind. */
  kind: MemoryKind;
  /** Its scope. */
  scope: MemoryScope;
  /** Its current revision. */
  revision: number;
  /** Its current content. */
  content: string;
}

/** What to do with a candidate. */
export type CandidateDecision =
  | { action: "skip_duplicate"; memoryId: string }
  | { action: "merge"; memoryId: string; expectedRevision: number }
  | { action: "create" };

/**
 * Normalizes memory content for comparison: NFKC, lower case, whitespace collapsed to
 * single spaces, trimmed.
 *
 * @param content any memory text
 * @returns the comparison form
 */
export function normalizeMemoryContent(content: string): string {
  return content.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim();
}

/**
 * Jaccard similarity of two texts' distinct recall tokens (Latin words, Han characters
 * and Han bigrams after NFKC and case folding).
 *
 * @param a one text
 * @param b another
 * @returns 0 (nothing shared, or no tokens) to 1 (the same tokens)
 */
export function memoryTokenSimilarity(a: string, b: string): number {
  const left = new Set(distinctMemoryTokens(a));
  const right = new Set(distinctMemoryTokens(b));
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const token of left) if (right.has(token)) shared += 1;
  return shared / (left.size + right.size - shared);
}

/**
 * Decides what to do with a candidate.
 *
 * @param candidate the proposed memory
 * @param activeMemories the active memories it may duplicate or correct
 * @returns skip (with the duplicate's id), merge (with the revision to correct) or create
 */
export function classifyCandidate(
  candidate: MemoryCandidate,
  activeMemories: readonly ActiveMemory[],
): CandidateDecision {
  const normalized = normalizeMemoryContent(candidate.content);
  const sameKindAndScope = activeMemories.filter((memory) =>
    memory.kind === candidate.kind && sameScope(memory.scope, candidate.scope)
  );
  const duplicate = sameKindAndScope.find((memory) =>
    normalizeMemoryContent(memory.content) === normalized
  );
  if (duplicate) return { action: "skip_duplicate", memoryId: duplicate.id };
  const explicit = candidate.memoryId === undefined
    ? undefined
    : activeMemories.find((memory) => memory.id === candidate.memoryId);
  if (explicit) {
    if (normalizeMemoryContent(explicit.content) === normalized) {
      return { action: "skip_duplicate", memoryId: explicit.id };
    }
    return { action: "merge", memoryId: explicit.id, expectedRevision: explicit.revision };
  }
  const similar = mostSimilar(candidate.content, sameKindAndScope);
  if (similar) return { action: "merge", memoryId: similar.id, expectedRevision: similar.revision };
  return { action: "create" };
}

/** The most similar memory at or above the threshold; ties go to the smaller id. */
function mostSimilar(content: string, memories: readonly ActiveMemory[]): ActiveMemory | null {
  let best: ActiveMemory | null = null;
  let bestScore = MEMORY_MERGE_SIMILARITY_MIN;
  for (const memory of memories) {
    const score = memoryTokenSimilarity(content, memory.content);
    if (score < bestScore) continue;
    if (best !== null && score === bestScore && memory.id > best.id) continue;
    best = memory;
    bestScore = score;
  }
  return best;
}

function sameScope(a: MemoryScope, b: MemoryScope): boolean {
  return a.type === b.type && a.key === b.key;
}

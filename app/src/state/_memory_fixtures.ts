/**
 * Memory rows and records for the Memory section's tests.
 *
 * @module
 */
import type { Memory, MemorySummary } from "@daedalus/client";

/** A memory id from a number. */
export const id = (n: number) => `memory_${n.toString(16).padStart(32, "0")}`;

/** A list row; a higher n was updated more recently. */
export function row(n: number, overrides: Partial<MemorySummary> = {}): MemorySummary {
  return {
    id: id(n),
    kind: "fact",
    scope: { type: "global", key: null },
    revision: 1,
    state: "active",
    preview: `memory ${n}`,
    createdAt: "2026-03-01T00:00:00.000Z",
    // Higher n = more recently updated, so pages are n descending.
    updatedAt: `2026-03-01T00:00:${String(n).padStart(2, "0")}.000Z`,
    forgottenAt: null,
    ...overrides,
  };
}

/** A whole record (`memory.get`). */
export function record(n: number, overrides: Partial<Memory> = {}): Memory {
  const { preview: _preview, ...summary } = row(n);
  return {
    ...summary,
    content: `memory ${n}`,
    provenance: {
      sourceKind: "user_explicit",
      threadId: null,
      turnId: null,
      itemId: null,
      status: "none",
    },
    ...overrides,
  };
}

/** A `memory.list` page. */
export const page = (rows: MemorySummary[], nextCursor: string | null) => ({
  memories: rows,
  nextCursor,
  hasMore: nextCursor !== null,
});

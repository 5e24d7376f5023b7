/**
 * `memory.*`. Failures are JSON-RPC -32020 with a memory reason code.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { Cursor, Identifier, ItemId, MemoryId } from "../ids.ts";
import { MemoryKind, MemoryState } from "../enums.ts";
import { PAGE_MAX_LIMIT } from "../../limits.ts";
import { Memory, MemoryContent, MemoryScope, MemorySummary } from "../domain/memory.ts";

const MutationResult = z.looseObject({
  memoryId: MemoryId,
  resultingRevision: z.int().min(1),
  created: z.boolean(),
});

/** Methods of the `memory` namespace. */
export const memoryMethods = {
  "memory.create": method({
    description: "Saves a memory; idempotent on clientRequestId",
    params: z.strictObject({
      kind: MemoryKind,
      scope: MemoryScope,
      content: MemoryContent,
      clientRequestId: Identifier,
      source: z.strictObject({ type: z.literal("session_item"), itemId: ItemId }).optional(),
    }),
    result: MutationResult,
  }),
  "memory.correct": method({
    description: "Replaces a memory's content as a new revision",
    params: z.strictObject({
      memoryId: MemoryId,
      expectedRevision: z.int().min(1),
      content: MemoryContent,
      clientRequestId: Identifier,
    }),
    result: MutationResult,
  }),
  "memory.forget": method({
    description: "Forgets a memory: writes a content-erasing tombstone revision",
    params: z.strictObject({
      memoryId: MemoryId,
      expectedRevision: z.int().min(1),
      clientRequestId: Identifier,
    }),
    result: MutationResult,
  }),
  "memory.list": method({
    description: "Pages memories, newest first, filtered by state, scope and kind",
    params: z.strictObject({
      cursor: Cursor.nullable().optional(),
      limit: z.int().min(1).max(PAGE_MAX_LIMIT).optional(),
      state: MemoryState.optional(),
      scope: MemoryScope.optional(),
      kind: MemoryKind.optional(),
    }),
    result: z.looseObject({
      memories: z.array(MemorySummary),
      nextCursor: Cursor.nullable(),
      hasMore: z.boolean(),
    }),
  }),
  "memory.get": method({
    description: "Reads one memory with its provenance",
    params: z.strictObject({ memoryId: MemoryId }),
    result: z.looseObject({ memory: Memory }),
  }),
};

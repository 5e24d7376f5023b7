/**
 * Long-term memories as the wire shows them.
 *
 * @module
 */
import { z } from "zod";
import { ItemId, MemoryId, ThreadId, Timestamp, TurnId } from "../ids.ts";
import { MemoryKind, MemorySourceKind, MemoryState } from "../enums.ts";
import { MEMORY_CONTENT_MAX_CHARS, MEMORY_PREVIEW_MAX_CHARS } from "../limits.ts";

/** Where a memory applies: everywhere, or one workspace (its key is derived by the runtime). */
export const MemoryScope = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("global"), key: z.null() }),
  z.strictObject({ type: z.literal("workspace"), key: z.string().min(1).max(200) }),
]);
/** A memory scope. */
export type MemoryScope = z.infer<typeof MemoryScope>;

/** Memory text: 1–2,048 characters. */
export const MemoryContent = z.string().trim().min(1).max(MEMORY_CONTENT_MAX_CHARS);

/** A memory in a list page. */
export const MemorySummary = z.looseObject({
  id: MemoryId,
  kind: MemoryKind,
  scope: MemoryScope,
  revision: z.int().min(1),
  state: MemoryState,
  preview: z.string().max(MEMORY_PREVIEW_MAX_CHARS),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  forgottenAt: Timestamp.nullable(),
});
/** A memory in a list page. */
export type MemorySummary = z.infer<typeof MemorySummary>;

/** Where a memory's current revision came from, and whether that source still exists. */
export const MemoryProvenance = z.looseObject({
  sourceKind: MemorySourceKind,
  threadId: ThreadId.nullable(),
  turnId: TurnId.nullable(),
  itemId: ItemId.nullable(),
  status: z.enum(["available", "unavailable", "none"]),
});
/** A memory's provenance. */
export type MemoryProvenance = z.infer<typeof MemoryProvenance>;

/** A whole memory (`memory.get`); content is null once forgotten. */
export const Memory = z.looseObject({
  id: MemoryId,
  kind: MemoryKind,
  scope: MemoryScope,
  revision: z.int().min(1),
  state: MemoryState,
  content: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  forgottenAt: Timestamp.nullable(),
  provenance: MemoryProvenance,
});
/** A whole memory. */
export type Memory = z.infer<typeof Memory>;

/**
 * Long-term memories as the wire shows them.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { ItemId, MemoryId, ThreadId, Timestamp, TurnId } from "../ids.ts";
import { MemoryKind, MemorySourceKind, MemoryState } from "../enums.ts";
import { MEMORY_CONTENT_MAX_CHARS, MEMORY_PREVIEW_MAX_CHARS } from "../../limits.ts";

export const MemoryScope = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("global"), key: z.null() }),
  z.strictObject({ type: z.literal("workspace"), key: z.string().min(1).max(200) }),
]).register(docs, {
  description:
    "Where a memory applies: everywhere, or one workspace (its key is derived by the runtime).",
});

export const MemoryContent = z.string().trim().min(1).max(MEMORY_CONTENT_MAX_CHARS).register(docs, {
  description: "Memory text: 1–2,048 characters.",
});

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
}).register(docs, { description: "A memory in a list page." });

export const MemoryProvenance = z.looseObject({
  sourceKind: MemorySourceKind,
  threadId: ThreadId.nullable(),
  turnId: TurnId.nullable(),
  itemId: ItemId.nullable(),
  status: z.enum(["available", "unavailable", "none"]),
}).register(docs, {
  description: "Where a memory's current revision came from, and whether that source still exists.",
});

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
}).register(docs, {
  description: "A whole memory (`memory.get`); content is null once forgotten.",
});

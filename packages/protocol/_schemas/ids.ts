/**
 * The id schemas (an id prefix plus 32 lowercase hex digits) and the generic identifiers,
 * cursors and timestamps of the wire.
 *
 * @module
 */
import { z } from "zod";
import type { IdPrefix } from "../ids.ts";
import { IDENTIFIER_MAX_CHARS } from "../limits.ts";
import { docs } from "./docs.ts";

function idSchema(prefix: IdPrefix, description: string) {
  return z.string().regex(new RegExp(`^${prefix}_[0-9a-f]{32}$`), {
    error: `expected a ${prefix} id (${prefix}_ + 32 lowercase hex digits)`,
  }).register(docs, { description });
}

export const ThreadId = idSchema("thread", "A thread id.");
export const BranchId = idSchema("branch", "A branch id.");
export const TurnId = idSchema("turn", "A turn id.");
export const RunId = idSchema("run", "A run id.");
export const ItemId = idSchema("item", "An item id.");
export const MemoryId = idSchema("memory", "A memory id.");
export const ProcessId = idSchema("process", "A managed process id.");
export const WorkspaceId = idSchema("workspace", "A workspace id.");
export const ApprovalId = idSchema("approval", "An approval id.");

export const Identifier = z.string().min(1).max(IDENTIFIER_MAX_CHARS).register(docs, {
  description:
    "A generic client-chosen identifier (clientRequestId, provider and model ids): 1–200 characters.",
});

export const Cursor = z.string().min(1).max(1024).register(docs, {
  description: "An opaque pagination cursor issued by the server.",
});

export const Timestamp = z.iso.datetime().register(docs, {
  description: "An ISO-8601 UTC timestamp with milliseconds, e.g. `2026-10-01T10:00:00.000Z`.",
});

export const LocalDate = z.iso.date().register(docs, {
  description: "A local calendar date, `YYYY-MM-DD`.",
});

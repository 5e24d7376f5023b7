/**
 * Stable ids: a typed prefix plus 32 lowercase hex digits from the platform's
 * cryptographic random source.
 *
 * @module
 */
import { z } from "zod";
import { IDENTIFIER_MAX_CHARS } from "./limits.ts";

/** The prefixes of every id the runtime mints. */
export const ID_PREFIXES = [
  "thread",
  "branch",
  "turn",
  "run",
  "item",
  "memory",
  "process",
  "workspace",
] as const;

/** One of {@linkcode ID_PREFIXES}. */
export type IdPrefix = typeof ID_PREFIXES[number];

/**
 * Mints a new id such as `thread_0123456789abcdef0123456789abcdef`.
 *
 * @param prefix what the id names
 * @returns the prefix, an underscore and 32 lowercase hex digits
 */
export function newId<P extends IdPrefix>(prefix: P): `${P}_${string}` {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return `${prefix}_${hex}`;
}

function idSchema(prefix: IdPrefix) {
  return z.string().regex(new RegExp(`^${prefix}_[0-9a-f]{32}$`), {
    error: `expected a ${prefix} id (${prefix}_ + 32 lowercase hex digits)`,
  });
}

/** A thread id. */
export const ThreadId = idSchema("thread");
/** A branch id. */
export const BranchId = idSchema("branch");
/** A turn id. */
export const TurnId = idSchema("turn");
/** A run id. */
export const RunId = idSchema("run");
/** An item id. */
export const ItemId = idSchema("item");
/** A memory id. */
export const MemoryId = idSchema("memory");
/** A managed process id. */
export const ProcessId = idSchema("process");
/** A workspace id. */
export const WorkspaceId = idSchema("workspace");

/** A generic client-chosen identifier (clientRequestId, provider and model ids): 1–200 characters. */
export const Identifier = z.string().min(1).max(IDENTIFIER_MAX_CHARS);

/** An opaque pagination cursor issued by the server. */
export const Cursor = z.string().min(1).max(1024);

/** An ISO-8601 UTC timestamp with milliseconds, e.g. `2026-10-01T10:00:00.000Z`. */
export const Timestamp = z.iso.datetime();

/** A local calendar date, `YYYY-MM-DD`. */
export const LocalDate = z.iso.date();

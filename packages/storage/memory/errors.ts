/**
 * Errors of memory.db: opening it, and refusing memory operations. Each has a stable
 * `code`; operation refusals also carry the protocol's memory reason code.
 *
 * @module
 */
import type { MemoryReasonCode } from "@daedalus/protocol";

/** The fixed start of every schema-drift message; the seed's wording, kept verbatim. */
export const MEMORY_SCHEMA_INCOMPATIBLE_MESSAGE =
  "memory database schema is incompatible; restore a compatible backup";

/**
 * Thrown when an existing memory.db does not match the schema this runtime expects. The
 * file is left as it was: memories are user data, so the fix is a compatible backup,
 * never a reset.
 */
export class MemorySchemaIncompatibleError extends Error {
  /** Stable error code. */
  readonly code = "memory_schema_incompatible";
  /** The database file that was refused. */
  readonly path: string;
  /** One short description per difference, e.g. `missing table memory_fts`. */
  readonly differences: readonly string[];

  /**
   * Creates the error.
   *
   * @param path the database file
   * @param differences what differs from the expected schema (at least one)
   */
  constructor(path: string, differences: readonly string[]) {
    const shown = differences.slice(0, 5).join("; ");
    const more = differences.length > 5 ? `; and ${differences.length - 5} more` : "";
    super(`${MEMORY_SCHEMA_INCOMPATIBLE_MESSAGE}: ${shown}${more}`);
    this.name = "MemorySchemaIncompatibleError";
    this.path = path;
    this.differences = differences;
  }
}

/** Thrown when memory.db cannot be opened or read at all. */
export class MemoryDatabaseOpenError extends Error {
  /** Stable error code. */
  readonly code = "memory_database_open_failed";
  /** The database file. */
  readonly path: string;

  /**
   * Creates the error.
   *
   * @param path the database file
   * @param message what went wrong
   * @param options the original error as `cause`
   */
  constructor(path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "MemoryDatabaseOpenError";
    this.path = path;
  }
}

/** Why a memory operation was refused: a protocol memory reason code, or bad input. */
export type MemoryErrorCode = MemoryReasonCode | "invalid_params" | "invalid_cursor";

/**
 * A refused memory operation. `code` is the protocol reason code the RPC layer sends as
 * `data.reasonCode` (-32020 for memory reasons, -32602 for `invalid_params` and
 * `invalid_cursor`).
 */
export class MemoryError extends Error {
  /** Stable reason code. */
  readonly code: MemoryErrorCode;
  /** The request field at fault, when there is one. */
  readonly field?: string;

  /**
   * Creates the error.
   *
   * @param code the reason code
   * @param message sentence-case description, no trailing period
   * @param field the request field at fault
   */
  constructor(code: MemoryErrorCode, message: string, field?: string) {
    super(message);
    this.name = "MemoryError";
    this.code = code;
    if (field !== undefined) this.field = field;
  }
}

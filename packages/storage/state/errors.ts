/**
 * Errors thrown while opening, checking and backing up state.db. Each has a stable
 * `code` that callers (the CLI, the runtime's start-up) can match on.
 *
 * @module
 */

/** The fixed start of every schema-drift message; the seed's wording, kept verbatim. */
export const STATE_SCHEMA_INCOMPATIBLE_MESSAGE =
  "state database schema is incompatible; reset required";

/**
 * Thrown when an existing state.db does not match the schema this runtime expects
 * (other `user_version`, missing, extra or changed tables and indexes). The file is
 * left as it was; the fix is to move it away (with its `-wal`/`-shm`) and restart.
 */
export class StateSchemaIncompatibleError extends Error {
  /** Stable error code. */
  readonly code = "state_schema_incompatible";
  /** The database file that was refused. */
  readonly path: string;
  /** One short description per difference, e.g. `missing index items_turn_context_idx`. */
  readonly differences: readonly string[];

  /**
   * Creates the error.
   *
   * @param path the database file
   * @param differences what differs from the expected schema (at least one)
   * @param options the original error, when there is one
   */
  constructor(path: string, differences: readonly string[], options?: ErrorOptions) {
    super(`${STATE_SCHEMA_INCOMPATIBLE_MESSAGE}: ${summarizeDifferences(differences)}`, options);
    this.name = "StateSchemaIncompatibleError";
    this.path = path;
    this.differences = differences;
  }
}

/** How many differences the message names; the rest are counted, all are in `differences`. */
const MESSAGE_MAX_DIFFERENCES = 5;

function summarizeDifferences(differences: readonly string[]): string {
  if (differences.length <= MESSAGE_MAX_DIFFERENCES) return differences.join("; ");
  const rest = differences.length - MESSAGE_MAX_DIFFERENCES;
  return `${differences.slice(0, MESSAGE_MAX_DIFFERENCES).join("; ")}; and ${rest} more`;
}

/** Thrown when state.db does not exist and the caller asked not to create it. */
export class StateDatabaseNotFoundError extends Error {
  /** Stable error code. */
  readonly code = "state_database_not_found";
  /** The missing database file. */
  readonly path: string;

  /**
   * Creates the error.
   *
   * @param path the missing database file
   * @param options the original error, when there is one
   */
  constructor(path: string, options?: ErrorOptions) {
    super(`State database not found at ${path}`, options);
    this.name = "StateDatabaseNotFoundError";
    this.path = path;
  }
}

/**
 * Thrown when state.db cannot be opened or read at all: not a SQLite file, no
 * permission, a missing directory, or WAL mode refused by the file system.
 */
export class StateDatabaseOpenError extends Error {
  /** Stable error code. */
  readonly code = "state_database_open_failed";
  /** The database file. */
  readonly path: string;

  /**
   * Creates the error.
   *
   * @param path the database file
   * @param message a sentence-case description
   * @param options the original error, when there is one
   */
  constructor(path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StateDatabaseOpenError";
    this.path = path;
  }
}

/**
 * Thrown when a transaction callback returns a promise. Transactions are synchronous:
 * a promise would let the commit run before the awaited work, so the transaction is
 * rolled back instead.
 */
export class StateTransactionError extends Error {
  /** Stable error code. */
  readonly code = "state_transaction_async";

  /**
   * Creates the error.
   *
   * @param options the original error, when there is one
   */
  constructor(options?: ErrorOptions) {
    super("Transaction callback returned a promise; it must be synchronous", options);
    this.name = "StateTransactionError";
  }
}

/** Thrown when a backup's output path already exists; backups never overwrite. */
export class StateBackupExistsError extends Error {
  /** Stable error code. */
  readonly code = "backup_exists";
  /** The output path that already exists. */
  readonly path: string;

  /**
   * Creates the error.
   *
   * @param path the existing output path
   * @param options the original error, when there is one
   */
  constructor(path: string, options?: ErrorOptions) {
    super(`Backup output already exists: ${path}`, options);
    this.name = "StateBackupExistsError";
    this.path = path;
  }
}

/** Thrown when a backup fails for any other reason; no file is left under the output path. */
export class StateBackupError extends Error {
  /** Stable error code. */
  readonly code = "backup_failed";
  /** The requested output path. */
  readonly path: string;

  /**
   * Creates the error.
   *
   * @param path the requested output path
   * @param message a sentence-case description
   * @param options the original error, when there is one
   */
  constructor(path: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StateBackupError";
    this.path = path;
  }
}

/** Codes of {@linkcode JournalError} and {@linkcode StoreError}. */
export type StoreErrorCode =
  | "invalid_event"
  | "thread_not_found"
  | "branch_not_found"
  | "turn_not_found"
  | "turn_not_in_thread"
  | "turn_active"
  | "run_not_found"
  | "item_not_found"
  | "thread_archived"
  | "thread_busy"
  | "run_not_active"
  | "run_not_resumable"
  | "idempotency_conflict"
  | "workspace_unavailable"
  | "run_config_part_mismatch"
  | "run_config_part_missing"
  | "approval_not_found"
  | "approval_already_resolved"
  | "approval_decision_invalid"
  | "question_not_found"
  | "question_already_answered"
  | "question_answer_invalid"
  | "tool_call_not_pending";

/** The journal refused an event (a bug in its producer, never user input). */
export class JournalError extends Error {
  /** Stable reason. */
  readonly code: StoreErrorCode;

  /**
   * Makes the error.
   *
   * @param code stable reason
   * @param message what is wrong
   * @param options the original error as `cause`
   */
  constructor(code: StoreErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "JournalError";
    this.code = code;
  }
}

/**
 * A store operation was refused for a reason the caller can act on (missing thread,
 * archived thread, idempotency conflict…). Its `code` is a protocol reason code.
 */
export class StoreError extends Error {
  /** Stable reason, one of the protocol's error reason codes. */
  readonly code: StoreErrorCode;

  /**
   * Makes the error.
   *
   * @param code stable reason
   * @param message sentence-case description without a trailing period
   * @param options the original error as `cause`
   */
  constructor(code: StoreErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StoreError";
    this.code = code;
  }
}

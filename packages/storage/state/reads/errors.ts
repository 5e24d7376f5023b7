/**
 * The one error class the state reads throw. Its `code` is stable: the first four are
 * JSON-RPC reason codes the server can pass on unchanged; `projection_corrupt` means a
 * stored row does not fit the protocol and maps to `internal_error`.
 *
 * @module
 */
import { StorageError } from "../../errors.ts";

/** Codes of {@linkcode ReadError}. */
export type ReadErrorCode =
  | "invalid_params"
  | "invalid_cursor"
  | "thread_not_found"
  | "branch_not_found"
  | "projection_corrupt";

/**
 * A read was refused (bad input, unknown thread or branch, foreign or malformed cursor)
 * or found a stored row it cannot turn into a protocol shape.
 *
 * @example
 * ```ts
 * try {
 *   getThread(db, threadId);
 * } catch (error) {
 *   if (error instanceof ReadError && error.code === "thread_not_found") return null;
 *   throw error;
 * }
 * ```
 */
export class ReadError extends StorageError {
  /** Why the read failed. */
  declare readonly code: ReadErrorCode;
  /** The input field at fault (`limit`, `cursor`, `threadId`), when one is to blame. */
  readonly field: string | undefined;

  /**
   * Creates the error.
   *
   * @param code why the read failed
   * @param message sentence-case description without a trailing period
   * @param field the input field at fault, when one is to blame
   * @param options the original error as `cause`
   */
  constructor(code: ReadErrorCode, message: string, field?: string, options?: ErrorOptions) {
    super(code, message, options);
    this.name = "ReadError";
    this.field = field;
  }
}

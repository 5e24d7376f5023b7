/**
 * The validator every exported message schema is: `parse` and `safeParse`, typed by the
 * message they check. The schemas are zod schemas underneath; this is the part of them
 * the package promises, so its public types do not depend on zod's.
 *
 * @module
 */

/** One problem a schema found in its input. */
export interface SchemaIssue {
  /** What kind of problem, e.g. `invalid_type`, `too_big`, `unrecognized_keys`, `custom`. */
  readonly code: string;
  /** Where the offending value is inside the input; empty for the input itself. */
  readonly path: readonly PropertyKey[];
  /** A readable description of the problem. */
  readonly message: string;
  /** The unknown keys, for `unrecognized_keys` issues. */
  readonly keys?: readonly string[];
}

/** Every problem a schema found; thrown by `parse`, returned by `safeParse`. */
export interface SchemaError extends Error {
  /** The problems, in the order they were found. */
  readonly issues: readonly SchemaIssue[];
}

/** The outcome of {@linkcode Schema.safeParse}: the typed data, or the error. */
export type SafeParseResult<T> =
  | { success: true; data: T; error?: undefined }
  | { success: false; data?: undefined; error: SchemaError };

/**
 * A schema that validates unknown input as a `T`. Every message schema this package
 * exports is one, named like its message type.
 *
 * @example
 * ```ts
 * import { Thread } from "@daedalus/protocol";
 *
 * const result = Thread.safeParse(JSON.parse('{"id":"thread_x"}'));
 * if (!result.success) console.log(result.error.issues[0]?.path); // ["id"]
 * ```
 */
export interface Schema<T> {
  /**
   * Validates input.
   *
   * @param data the input
   * @returns the validated data
   * @throws {SchemaError} listing every problem found
   */
  parse(data: unknown): T;
  /**
   * Validates input without throwing.
   *
   * @param data the input
   * @returns the validated data, or the error listing every problem found
   */
  safeParse(data: unknown): SafeParseResult<T>;
}

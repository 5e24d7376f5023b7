/**
 * Input checks shared by the reads. The RPC layer has validated params already; these
 * guard the in-process callers (tools, the scheduler) that skip it.
 *
 * @module
 */
import { ReadError } from "./errors.ts";

/** Anything with a protocol schema's `safeParse`: ids, vocabularies, dates. */
export interface SafeParser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/**
 * Checks an id against its protocol schema.
 *
 * @throws {ReadError} `invalid_params` naming `field` when it does not match
 */
export function requireId<T>(schema: SafeParser<T>, value: unknown, field: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ReadError("invalid_params", `Parameter ${field} is not a valid id`, field);
  }
  return parsed.data;
}

/**
 * Resolves a page size: `fallback` when absent, else an integer in 1..`max`.
 *
 * @throws {ReadError} `invalid_params` naming `field` when out of range or not an integer
 */
export function pageLimit(
  value: number | undefined,
  fallback: number,
  max: number,
  field = "limit",
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ReadError(
      "invalid_params",
      `Parameter ${field} must be an integer from 1 to ${max}`,
      field,
    );
  }
  return value;
}

/**
 * Checks a non-negative safe integer such as a journal seq.
 *
 * @throws {ReadError} `invalid_params` naming `field` otherwise
 */
export function nonNegativeInteger(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new ReadError(
      "invalid_params",
      `Parameter ${field} must be a non-negative safe integer`,
      field,
    );
  }
  return value;
}

import { GovernanceError } from "./governance_error.ts";

/**
 * An integer option within `[min, max]`, or `fallback` when absent. Options come from
 * config.yaml and RPC later, so a wrong one is refused with `code`, naming it and its range.
 */
export function integerOption(
  code: string,
  name: string,
  value: unknown,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new GovernanceError(
      code,
      `Option ${name} must be an integer from ${min} to ${max}, got ${describe(value)}`,
    );
  }
  return value;
}

/** The clock option: a function returning epoch milliseconds, or `Date.now`. */
export function clockOption(code: string, value: unknown): () => number {
  if (value === undefined) return Date.now;
  if (typeof value !== "function") {
    throw new GovernanceError(code, `Option now must be a function, got ${describe(value)}`);
  }
  return value as () => number;
}

/** A short, safe rendering of a rejected value for an error message. */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, 40));
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "null";
  return typeof value;
}

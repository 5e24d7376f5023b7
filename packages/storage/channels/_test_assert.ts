/**
 * The few assertions the channels tests use, on `node:assert/strict` (the repository's
 * test assertion library), with the thrown error returned for checking its code.
 *
 * @module
 */
import nodeAssert from "node:assert/strict";

/** Asserts `value` is truthy. */
export function assert(value: unknown, message?: string): asserts value {
  nodeAssert.ok(value, message);
}

/** Asserts deep equality. */
export function assertEquals(actual: unknown, expected: unknown, message?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, message);
}

/** Asserts `fn` throws an instance of `type` and returns it. */
export function assertThrows<E extends Error>(
  fn: () => unknown,
  type: new (...args: never[]) => E,
): E {
  try {
    fn();
  } catch (error) {
    nodeAssert.ok(error instanceof type, `expected ${type.name}, got ${error}`);
    return error;
  }
  throw new nodeAssert.AssertionError({ message: `expected ${type.name} to be thrown` });
}

/** Asserts `fn` rejects with an instance of `type` and returns it. */
export async function assertRejects<E extends Error>(
  fn: () => Promise<unknown>,
  type: new (...args: never[]) => E,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    nodeAssert.ok(error instanceof type, `expected ${type.name}, got ${error}`);
    return error;
  }
  throw new nodeAssert.AssertionError({ message: `expected ${type.name} to be rejected` });
}

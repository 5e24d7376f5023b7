/**
 * A sandbox Worker module that fails while loading (tests: a sandbox that cannot start).
 * Plain JavaScript, so that starting it under `deno test` waits for no type check.
 *
 * @module
 */
throw new Error("this sandbox cannot start");

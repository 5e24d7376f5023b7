/**
 * A sandbox Worker module that fails while loading (tests: a sandbox that cannot start).
 *
 * @module
 */
throw new Error("this sandbox cannot start");

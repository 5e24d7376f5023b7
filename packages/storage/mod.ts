/**
 * @daedalus/storage — the runtime home, the state journal and its projections,
 * config.yaml, and offline maintenance, on the built-in `node:sqlite`.
 *
 * Imports only `@daedalus/protocol`.
 *
 * @module
 */
export {};

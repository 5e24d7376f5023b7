/**
 * The channels' storage: channels.yaml and channels.db.
 *
 * @module
 */
export * from "./errors.ts";
export * from "./limits.ts";
export * from "./config.ts";
export * from "./schema.ts";
export * from "./store.ts";

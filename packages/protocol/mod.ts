/**
 * @daedalus/protocol — the wire contract of the Daedalus runtime. zod schemas are the
 * single definition of every message: JSON-RPC envelopes, each method's params and
 * result, the journal event envelope and payloads, domain shapes, error and reason
 * codes, ids, and the strict JSON codec. Pure TypeScript, no I/O.
 *
 * Each message is exported twice under one name: as a type, and as its schema typed
 * {@linkcode Schema} of that type (`Thread.parse(x)` returns a `Thread`). Both are
 * generated from the zod schemas into `types.gen.ts`.
 *
 * @example
 * ```ts
 * import { decodeInbound, parseParams } from "@daedalus/protocol";
 *
 * const { entries } = decodeInbound('{"jsonrpc":"2.0","id":1,"method":"thread.get",' +
 *   '"params":{"threadId":"thread_0123456789abcdef0123456789abcdef"}}');
 * const entry = entries[0];
 * if (entry.ok && entry.call.method === "thread.get") {
 *   const params = parseParams("thread.get", entry.call.params);
 * }
 * ```
 *
 * @module
 */
export * from "./version.ts";
export * from "./limits.ts";
export * from "./json_codec.ts";
export * from "./schema.ts";
export * from "./types.gen.ts";
export * from "./ids.ts";
export * from "./errors.ts";
export * from "./reason_codes.ts";
export * from "./failure_classes.ts";
export * from "./enums.ts";
export * from "./permission_rules.ts";
export * from "./jsonrpc.ts";
export * from "./events.ts";
export * from "./event_encoding.ts";
export * from "./canonical_events.ts";
export * from "./methods.ts";
export * from "./golden_trace.ts";
export * from "./manifest.ts";

/**
 * JSON-RPC 2.0 envelopes, exactly as the specification has them.
 *
 * @module
 */
import { z } from "zod";
import { RpcErrorObject } from "./errors.ts";
import { docs } from "./docs.ts";

export const JsonRpcId = z.union([z.string().min(1).max(200), z.int()]).register(docs, {
  description: "A request id: a string or a safe integer.",
});

export const JsonRpcRequest = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: JsonRpcId,
  method: z.string().min(1).max(200),
  params: z.record(z.string(), z.unknown()).optional(),
}).register(docs, {
  description: "A JSON-RPC request (has an id, expects a response). Params are by name.",
});

export const JsonRpcNotification = z.strictObject({
  jsonrpc: z.literal("2.0"),
  method: z.string().min(1).max(200),
  params: z.record(z.string(), z.unknown()).optional(),
}).register(docs, { description: "A JSON-RPC notification (no id, no response)." });

export const JsonRpcSuccess = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: JsonRpcId,
  result: z.unknown(),
}).register(docs, { description: "A successful response." });

export const JsonRpcFailure = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: JsonRpcId.nullable(),
  error: RpcErrorObject,
}).register(docs, {
  description: "An error response; `id` is null when the request's id could not be read.",
});

export const JsonRpcResponse = z.union([JsonRpcSuccess, JsonRpcFailure]).register(docs, {
  description: "Any response.",
});

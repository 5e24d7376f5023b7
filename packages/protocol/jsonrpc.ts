/**
 * JSON-RPC 2.0 envelopes, exactly as the specification has them, and the decoder
 * every inbound message goes through (strict JSON first, then the envelope).
 *
 * @module
 */
import { z } from "zod";
import { type DecodeOptions, decodeStrictJson, StrictJsonError } from "./json_codec.ts";
import { RPC_ERROR_CODES, RpcError, RpcErrorObject } from "./errors.ts";
import { BATCH_MAX_REQUESTS } from "./limits.ts";

/** A request id: a string or a safe integer. */
export const JsonRpcId = z.union([z.string().min(1).max(200), z.int()]);
/** A request id. */
export type JsonRpcId = z.infer<typeof JsonRpcId>;

/** A JSON-RPC request (has an id, expects a response). Params are by name. */
export const JsonRpcRequest = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: JsonRpcId,
  method: z.string().min(1).max(200),
  params: z.record(z.string(), z.unknown()).optional(),
});
/** A JSON-RPC request. */
export type JsonRpcRequest = z.infer<typeof JsonRpcRequest>;

/** A JSON-RPC notification (no id, no response). */
export const JsonRpcNotification = z.strictObject({
  jsonrpc: z.literal("2.0"),
  method: z.string().min(1).max(200),
  params: z.record(z.string(), z.unknown()).optional(),
});
/** A JSON-RPC notification. */
export type JsonRpcNotification = z.infer<typeof JsonRpcNotification>;

/** A successful response. */
export const JsonRpcSuccess = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: JsonRpcId,
  result: z.unknown(),
});
/** A successful response. */
export type JsonRpcSuccess = z.infer<typeof JsonRpcSuccess>;

/** An error response; `id` is null when the request's id could not be read. */
export const JsonRpcFailure = z.strictObject({
  jsonrpc: z.literal("2.0"),
  id: JsonRpcId.nullable(),
  error: RpcErrorObject,
});
/** An error response. */
export type JsonRpcFailure = z.infer<typeof JsonRpcFailure>;

/** Any response. */
export const JsonRpcResponse = z.union([JsonRpcSuccess, JsonRpcFailure]);
/** Any response. */
export type JsonRpcResponse = z.infer<typeof JsonRpcResponse>;

/** One entry of a decoded inbound message: a usable call, or an error to answer with. */
export type InboundEntry =
  | { ok: true; call: JsonRpcRequest | JsonRpcNotification }
  | { ok: false; id: JsonRpcId | null; error: RpcError };

/** A decoded inbound message: a single call or a batch. */
export interface DecodedInbound {
  /** Whether the message was a JSON array (the responses must be one too). */
  batch: boolean;
  /** The calls, in order, each usable or already an error. */
  entries: InboundEntry[];
}

/**
 * Decodes one inbound JSON-RPC message under the strict JSON rules and checks each
 * envelope. Parse failures throw; envelope failures become per-entry errors, so a
 * batch answers every member it can.
 *
 * @param text the raw message
 * @param options strict JSON limits
 * @returns the decoded message
 * @throws {RpcError} -32700 with the codec's reason code when the text is refused, or
 *   -32600 for an empty or oversized batch
 */
export function decodeInbound(text: string | Uint8Array, options?: DecodeOptions): DecodedInbound {
  let value: unknown;
  try {
    value = decodeStrictJson(text, options);
  } catch (error) {
    if (error instanceof StrictJsonError) {
      throw new RpcError(RPC_ERROR_CODES.parseError, error.code, error.message, {}, {
        cause: error,
      });
    }
    throw error;
  }
  if (!Array.isArray(value)) return { batch: false, entries: [decodeEntry(value)] };
  if (value.length === 0) {
    throw new RpcError(RPC_ERROR_CODES.invalidRequest, "invalid_request", "Batch is empty");
  }
  if (value.length > BATCH_MAX_REQUESTS) {
    throw new RpcError(
      RPC_ERROR_CODES.invalidRequest,
      "batch_too_large",
      `Batch has more than ${BATCH_MAX_REQUESTS} requests`,
    );
  }
  return { batch: true, entries: value.map(decodeEntry) };
}

function decodeEntry(value: unknown): InboundEntry {
  const request = JsonRpcRequest.safeParse(value);
  if (request.success) return { ok: true, call: request.data };
  const notification = JsonRpcNotification.safeParse(value);
  if (notification.success) return { ok: true, call: notification.data };
  const id = readableId(value);
  const issue = request.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` (${issue.path.join(".")})` : "";
  return {
    ok: false,
    id,
    error: new RpcError(
      RPC_ERROR_CODES.invalidRequest,
      "invalid_request",
      `Not a valid JSON-RPC 2.0 request${where}`,
    ),
  };
}

function readableId(value: unknown): JsonRpcId | null {
  if (typeof value !== "object" || value === null || !("id" in value)) return null;
  const id = JsonRpcId.safeParse(value.id);
  return id.success ? id.data : null;
}

/**
 * Builds a success response.
 *
 * @param id the request's id
 * @param result the method's result
 * @returns the envelope
 */
export function successResponse(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  return { jsonrpc: "2.0", id, result };
}

/**
 * Builds an error response.
 *
 * @param id the request's id, or null when it could not be read
 * @param error the error
 * @returns the envelope
 */
export function failureResponse(id: JsonRpcId | null, error: RpcError): JsonRpcFailure {
  return { jsonrpc: "2.0", id, error: error.toJSON() };
}

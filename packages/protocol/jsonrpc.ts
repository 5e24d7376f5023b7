/**
 * The decoder every inbound JSON-RPC message goes through (strict JSON first, then the
 * envelope), and the builders of the responses. The envelope schemas are exported with
 * the other message schemas.
 *
 * @module
 */
import { type DecodeOptions, decodeStrictJson, StrictJsonError } from "./json_codec.ts";
import { RPC_ERROR_CODES, RpcError } from "./errors.ts";
import { BATCH_MAX_REQUESTS } from "./limits.ts";
import {
  type JsonRpcFailure,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  type JsonRpcSuccess,
} from "./types.gen.ts";

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

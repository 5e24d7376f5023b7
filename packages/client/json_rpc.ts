/**
 * The client's JSON-RPC 2.0 wire code, shared by the WebSocket and HTTP clients:
 * params checked before sending, requests encoded with the strict codec, and
 * inbound messages sorted into responses, event notifications and garbage.
 *
 * @module
 */
import {
  decodeStrictJson,
  encodeStrictJson,
  JsonRpcResponse,
  type MethodName,
  type ParamsOf,
  parseParams,
  RPC_ERROR_CODES,
  RpcError,
  type RpcErrorCode,
  type RpcErrorObject,
  StrictJsonError,
} from "@daedalus/protocol";

/**
 * The params argument of a call: required when the method has a required field,
 * optional (defaulting to `{}`) when every field is optional.
 */
export type CallParams<M extends MethodName> = Record<never, never> extends ParamsOf<M>
  ? [params?: ParamsOf<M>]
  : [params: ParamsOf<M>];

/** How one request ended: its raw result, or the error the server sent. */
export type RpcOutcome =
  | { ok: true; result: unknown }
  | { ok: false; error: RpcError };

/** One inbound message, sorted. A response's id is null when the server could not read it. */
export type InboundMessage =
  | { kind: "response"; id: string | number | null; outcome: RpcOutcome }
  | { kind: "event"; params: unknown }
  | { kind: "invalid"; id: string | number | null; reason: string };

/**
 * Validates params the way the server will, so a bad call fails before it is sent.
 *
 * @param method the method
 * @param params the params (absent counts as `{}`)
 * @returns the params to send
 * @throws {RpcError} -32602 `unknown_field` or `invalid_params`, exactly as the server would
 */
export function checkParams(method: MethodName, params: unknown): Record<string, unknown> {
  const checked = params ?? {};
  parseParams(method, checked);
  return checked as Record<string, unknown>;
}

/**
 * Encodes one request under the strict JSON rules.
 *
 * @param id the request id
 * @param method the method
 * @param params the checked params
 * @returns the JSON text
 * @throws {RpcError} -32700 with the codec's reason code when the params cannot be sent
 */
export function encodeRequest(
  id: number,
  method: string,
  params: Record<string, unknown>,
): string {
  return encodeMessage({ jsonrpc: "2.0", id, method, params });
}

/**
 * Encodes any outbound message (a request or a batch) under the strict JSON rules.
 *
 * @param message the message
 * @returns the JSON text
 * @throws {RpcError} -32700 with the codec's reason code when it cannot be sent
 */
export function encodeMessage(message: unknown): string {
  try {
    return encodeStrictJson(message);
  } catch (error) {
    if (!(error instanceof StrictJsonError)) throw error;
    throw new RpcError(RPC_ERROR_CODES.parseError, error.code, error.message, {}, {
      cause: error,
    });
  }
}

/**
 * Decodes one frame or body under the strict JSON rules.
 *
 * @param data the frame's data
 * @returns the value, or why it was refused
 */
export function decodeMessage(data: unknown): { ok: true; value: unknown } | {
  ok: false;
  reason: string;
} {
  if (typeof data !== "string") return { ok: false, reason: "Message is not a text frame" };
  try {
    return { ok: true, value: decodeStrictJson(data) };
  } catch (error) {
    if (error instanceof StrictJsonError) return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * Sorts one decoded inbound value: a response (success or failure), an `event`
 * notification, or something that is neither.
 *
 * @param value one decoded message (a batch's members are passed one by one)
 * @returns what it is
 */
export function classifyInbound(value: unknown): InboundMessage {
  if (isRecord(value) && value.jsonrpc === "2.0" && value.method === "event" && !("id" in value)) {
    return { kind: "event", params: value.params };
  }
  const response = JsonRpcResponse.safeParse(value);
  if (!response.success) {
    return { kind: "invalid", id: readId(value), reason: "Not a valid JSON-RPC 2.0 response" };
  }
  const message = response.data;
  if ("error" in message) {
    const error = rpcErrorFromWire(message.error);
    return { kind: "response", id: message.id, outcome: { ok: false, error } };
  }
  return { kind: "response", id: message.id, outcome: { ok: true, result: message.result } };
}

/**
 * Rebuilds the server's error as an `RpcError` with the same code, message and data.
 *
 * @param error the wire error object
 * @returns the error to reject with
 */
export function rpcErrorFromWire(error: RpcErrorObject): RpcError {
  const { reasonCode, ...extra } = error.data;
  return new RpcError(error.code as RpcErrorCode, reasonCode, error.message, extra);
}

function readId(value: unknown): string | number | null {
  if (!isRecord(value)) return null;
  const id = value.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * What both JSON-RPC transports share: answering `initialize`, turning any thrown
 * value into the error a client may see, and encoding a response under the strict
 * JSON rules (a result that cannot be encoded becomes an internal error, not a crash).
 *
 * @module
 */
import {
  type DecodedInbound,
  decodeInbound,
  encodeStrictJson,
  failureResponse,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  parseParams,
  PROTOCOL_VERSION,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  SERVER_NAME,
  successResponse,
} from "@daedalus/protocol";
import type { EventSource } from "./dispatcher.ts";

/** Where the server reports errors that no client may see in full. */
export type ServerErrorReporter = (error: unknown, context: string) => void;

/** The default reporter: one line on stderr (never stdout, which carries the ready line). */
export const reportToStderr: ServerErrorReporter = (error, context) => {
  console.error(`daedalus server: ${context}:`, error);
};

/** How one call was answered. */
export interface CallAnswer {
  /** The result, when the call succeeded. */
  result?: unknown;
  /** The error, when it failed. */
  error?: RpcError;
  /** What to run once the response has been handed to the transport. */
  afterResponse?: () => void;
}

/** What a whole inbound message produced. */
export interface MessageAnswer {
  /** The response text (one response, or an array for a batch); null when nothing answers. */
  body: string | null;
  /** The calls' `afterResponse` hooks, in call order, to run once `body` is sent. */
  afterResponses: Array<() => void>;
}

/** Options of {@linkcode answerMessage}. */
export interface AnswerMessageOptions {
  /** The byte limit for {@linkcode decodeInbound}. */
  maxBytes: number;
  /** Answers one well-formed call; a throw becomes that call's error. */
  answerCall: (call: JsonRpcRequest | JsonRpcNotification) => Promise<CallAnswer>;
  /** Where errors that clients see only as `internal_error` go. */
  report: ServerErrorReporter;
}

/** A message after decoding: its calls, or the answer to a message that could not be read. */
export type DecodedMessage =
  | { ok: true; decoded: DecodedInbound }
  | { ok: false; answer: MessageAnswer };

/**
 * Decodes one inbound JSON-RPC message; a parse error becomes one failure with id null.
 *
 * @param message the raw message
 * @param options the byte limit and where errors go
 * @returns the decoded calls, or the answer to send for an unreadable message
 */
export function decodeMessage(
  message: string | Uint8Array,
  options: Pick<AnswerMessageOptions, "maxBytes" | "report">,
): DecodedMessage {
  try {
    return { ok: true, decoded: decodeInbound(message, { maxBytes: options.maxBytes }) };
  } catch (error) {
    const failure = toRpcError(error, options.report, "decoding a message");
    return {
      ok: false,
      answer: {
        body: encodeRpcResponse(null, { error: failure }, options.report),
        afterResponses: [],
      },
    };
  }
}

/**
 * Decodes one inbound JSON-RPC message and answers its calls in order: a parse error
 * is one failure with id null; a malformed entry is its own failure; notifications
 * get no response entry.
 *
 * @param message the raw message
 * @param options the limit, how to answer a call, where errors go
 * @returns the response text and the hooks to run after sending it
 */
export async function answerMessage(
  message: string | Uint8Array,
  options: AnswerMessageOptions,
): Promise<MessageAnswer> {
  const decoded = decodeMessage(message, options);
  return decoded.ok ? await answerDecoded(decoded.decoded, options) : decoded.answer;
}

/**
 * Answers the calls of a decoded message in order (see {@linkcode answerMessage}).
 *
 * @param decoded the decoded message
 * @param options how to answer a call and where errors go
 * @returns the response text and the hooks to run after sending it
 */
export async function answerDecoded(
  decoded: DecodedInbound,
  options: Pick<AnswerMessageOptions, "answerCall" | "report">,
): Promise<MessageAnswer> {
  const responses: string[] = [];
  const afterResponses: Array<() => void> = [];
  for (const entry of decoded.entries) {
    if (!entry.ok) {
      responses.push(encodeRpcResponse(entry.id, { error: entry.error }, options.report));
      continue;
    }
    const call = entry.call;
    let answer: CallAnswer;
    try {
      answer = await options.answerCall(call);
    } catch (error) {
      answer = { error: toRpcError(error, options.report, `answering ${call.method}`) };
    }
    if (answer.afterResponse) afterResponses.push(answer.afterResponse);
    if (!("id" in call)) continue;
    responses.push(
      encodeRpcResponse(
        call.id,
        answer.error ? { error: answer.error } : { result: answer.result },
        options.report,
      ),
    );
  }
  const body = responses.length === 0
    ? null
    : decoded.batch
    ? `[${responses.join(",")}]`
    : responses[0];
  return { body, afterResponses };
}

/**
 * Validates `initialize` params and builds its result.
 *
 * @param params the params as received
 * @param events where `latestSeq` comes from
 * @param serverVersion the runtime's version
 * @returns the result
 * @throws {RpcError} -32602 for bad params, -32001 for another protocol version
 */
export function initializeResult(
  params: unknown,
  events: EventSource,
  serverVersion: string,
): ResultOf<"initialize"> {
  const { protocolVersion, eventEncoding = "full" } = parseParams("initialize", params);
  if (protocolVersion !== PROTOCOL_VERSION) {
    throw new RpcError(
      RPC_ERROR_CODES.unsupportedProtocolVersion,
      "unsupported_protocol_version",
      `Protocol version ${protocolVersion} is not supported; this server speaks ${PROTOCOL_VERSION}`,
      { supportedVersions: [PROTOCOL_VERSION] },
    );
  }
  return {
    protocolVersion: PROTOCOL_VERSION,
    server: { name: SERVER_NAME, version: serverVersion },
    latestSeq: events.latestSeq(),
    eventEncoding,
  };
}

/**
 * The error a client sees for anything thrown while answering: an {@linkcode RpcError}
 * as is; anything else is reported and becomes -32603 `internal_error` without its message.
 *
 * @param error what was thrown
 * @param report where the original goes
 * @param context what was being done, for the report
 * @returns the error to send
 */
export function toRpcError(error: unknown, report: ServerErrorReporter, context: string): RpcError {
  if (error instanceof RpcError) return error;
  report(error, context);
  return new RpcError(RPC_ERROR_CODES.internalError, "internal_error", "Internal error");
}

/**
 * Encodes a success (or a failure when `error` is given) for request `id`.
 *
 * @param id the request id (null only for failures)
 * @param outcome `{result}` or `{error}`
 * @param report where an encoding failure goes
 * @returns the JSON text
 */
export function encodeRpcResponse(
  id: JsonRpcId | null,
  outcome: { result: unknown } | { error: RpcError },
  report: ServerErrorReporter,
): string {
  const response: JsonRpcResponse = "error" in outcome
    ? failureResponse(id, outcome.error)
    : id === null
    ? failureResponse(null, internalError())
    : successResponse(id, outcome.result);
  try {
    return encodeStrictJson(response);
  } catch (error) {
    report(error, "encoding a response");
    return encodeStrictJson(failureResponse(id, internalError()));
  }
}

/**
 * Runs an outcome's `afterResponse` (publishing committed events), reporting a throw
 * instead of letting it reach the transport.
 *
 * @param afterResponse the hook, if any
 * @param report where a throw goes
 */
export function runAfterResponse(
  afterResponse: (() => void) | undefined,
  report: ServerErrorReporter,
): void {
  if (!afterResponse) return;
  try {
    afterResponse();
  } catch (error) {
    report(error, "publishing after a response");
  }
}

function internalError(): RpcError {
  return new RpcError(RPC_ERROR_CODES.internalError, "internal_error", "Internal error");
}

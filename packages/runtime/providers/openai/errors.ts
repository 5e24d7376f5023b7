/**
 * Classification of provider failures into the categories of the protocol: HTTP
 * statuses, error bodies, mid-stream error frames and transport failures each become
 * one {@linkcode ProviderError} with status, request id, retryability and retry-after.
 *
 * @module
 */
import type { ProviderFailureCategory } from "@daedalus/protocol";
import { ProviderError } from "../provider.ts";
import { ERROR_MESSAGE_MAX_CHARS } from "./limits.ts";

const CONTEXT_OVERFLOW =
  /context_length_exceeded|maximum context length|too many tokens|context window|context length/i;
const RETRYABLE = new Set<ProviderFailureCategory>(["rate_limit", "server", "network", "timeout"]);

/** What a provider said about a failure, from a body or an error frame. */
interface ProviderComplaint {
  message: string;
  code: string;
  type: string;
  status: number | undefined;
}

/**
 * The seconds a response asks the client to wait: `retry-after-ms`, else `retry-after`
 * as seconds or an HTTP date.
 *
 * @param headers response headers
 * @param nowMs the current time, for HTTP dates
 * @returns non-negative seconds, or undefined when the response does not say
 */
export function parseRetryAfter(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const milliseconds = Number(headers.get("retry-after-ms") ?? "");
  if (headers.has("retry-after-ms") && Number.isFinite(milliseconds) && milliseconds >= 0) {
    return milliseconds / 1000;
  }
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - nowMs) / 1000);
}

/**
 * Classifies a failed HTTP response.
 *
 * @param status the HTTP status (≥ 400)
 * @param headers the response headers (request id, retry-after)
 * @param body the start of the response body
 * @returns the classified failure
 */
export function errorFromResponse(status: number, headers: Headers, body: string): ProviderError {
  const complaint = parseComplaint(body);
  const category = categoryOfStatus(status, complaint);
  const said = complaint.message ? `: ${complaint.message}` : "";
  return new ProviderError(category, `The provider answered HTTP ${status}${said}`, {
    status,
    retryable: RETRYABLE.has(category),
    requestId: headers.get("x-request-id") ?? undefined,
    retryAfterSec: parseRetryAfter(headers),
    providerMessage: complaint.message || undefined,
  });
}

/**
 * Classifies an error frame (`data: {"error": …}`) received inside a stream.
 *
 * @param error the frame's `error` value
 * @param requestId the request id, when known
 * @returns the classified failure
 */
export function errorFromStreamFrame(error: unknown, requestId: string | null): ProviderError {
  const complaint = complaintOf(error);
  const category = complaint.status !== undefined
    ? categoryOfStatus(complaint.status, complaint)
    : categoryOfCodes(complaint);
  const said = complaint.message || complaint.code || complaint.type || "no details";
  return new ProviderError(category, `The provider reported an error mid-stream: ${said}`, {
    status: complaint.status,
    retryable: RETRYABLE.has(category),
    requestId: requestId ?? undefined,
    providerMessage: complaint.message || undefined,
  });
}

/**
 * A failure of the transport: the connection could not be made or broke.
 *
 * @param message what failed
 * @param cause the original error
 * @returns a retryable `network` failure
 */
export function networkError(message: string, cause: unknown): ProviderError {
  const detail = cause instanceof Error ? `: ${clip(cause.message)}` : "";
  return new ProviderError("network", `${message}${detail}`, { retryable: true, cause });
}

/**
 * A stream that broke the protocol.
 *
 * @param message what was wrong
 * @param retryable true when the stream merely ended early (a cut connection)
 * @returns a `protocol` failure
 */
export function protocolError(message: string, retryable = false): ProviderError {
  return new ProviderError("protocol", message, { retryable });
}

/**
 * Any thrown value as a provider failure: provider errors pass through, anything else
 * is an `unknown` failure.
 *
 * @param error what was thrown
 * @returns a provider failure
 */
export function toProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new ProviderError("unknown", `The provider call failed: ${clip(detail)}`, {
    cause: error,
  });
}

/**
 * A provider's text made safe to quote: control characters and runs of whitespace
 * become one space, and long text is cut.
 *
 * @param text any text
 * @returns at most {@linkcode ERROR_MESSAGE_MAX_CHARS} characters of it
 */
export function clip(text: string): string {
  // deno-lint-ignore no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f\s]+/g, " ").trim();
  return flat.length <= ERROR_MESSAGE_MAX_CHARS
    ? flat
    : `${flat.slice(0, ERROR_MESSAGE_MAX_CHARS - 1)}…`;
}

function categoryOfStatus(status: number, complaint: ProviderComplaint): ProviderFailureCategory {
  if (status === 401 || status === 403) return "authentication";
  if (status === 429) return "rate_limit";
  if (status === 408) return "timeout";
  if (status >= 500) return "server";
  if (status === 400 || status === 404 || status === 413 || status === 422) {
    return mentionsContextOverflow(complaint) ? "context_overflow" : "invalid_request";
  }
  return "unknown";
}

function categoryOfCodes(complaint: ProviderComplaint): ProviderFailureCategory {
  const codes = `${complaint.code} ${complaint.type}`.toLowerCase();
  if (mentionsContextOverflow(complaint)) return "context_overflow";
  if (/rate_limit|too_many_requests|quota/.test(codes)) return "rate_limit";
  if (/auth|api_key|permission/.test(codes)) return "authentication";
  if (/server_error|internal|overloaded|unavailable|timeout/.test(codes)) return "server";
  if (/invalid_request|bad_request|not_found/.test(codes)) return "invalid_request";
  return "unknown";
}

function mentionsContextOverflow(complaint: ProviderComplaint): boolean {
  return CONTEXT_OVERFLOW.test(`${complaint.code} ${complaint.type} ${complaint.message}`);
}

/**
 * The error body shapes real servers send:
 * - OpenAI, DeepSeek, llama.cpp, newer vLLM: `{"error":{"message","type","param","code"}}`
 *   (llama.cpp and vLLM put the HTTP status in `code`);
 * - older vLLM: `{"object":"error","message","type","param","code":400}` at the top level;
 * - Ollama: `{"error":"model \"x\" not found"}` (a string);
 * - FastAPI-based servers: `{"detail":"…"}` or `{"detail":[{"loc":[…],"msg":"…"}]}`;
 * - gateways that wrap it in a list: `[{"error":{…}}]`.
 */
function parseComplaint(body: string): ProviderComplaint {
  try {
    let parsed: unknown = JSON.parse(body);
    if (Array.isArray(parsed) && parsed.length > 0) parsed = parsed[0];
    if (isRecord(parsed)) {
      return complaintOf("error" in parsed && parsed.error ? parsed.error : parsed);
    }
  } catch {
    // Not JSON: the body text itself is the best explanation there is.
  }
  return { message: clip(body), code: "", type: "", status: undefined };
}

function complaintOf(error: unknown): ProviderComplaint {
  if (typeof error === "string") {
    return { message: clip(error), code: "", type: "", status: undefined };
  }
  if (!isRecord(error)) return { message: "", code: "", type: "", status: undefined };
  const message = textOf(error.message) || detailText(error.detail);
  const numericCode = typeof error.code === "number" ? error.code : Number(error.status);
  return {
    message: clip(message),
    code: typeof error.code === "string" ? clip(error.code) : "",
    type: clip(textOf(error.type)),
    status: Number.isInteger(numericCode) && numericCode >= 400 && numericCode < 600
      ? numericCode
      : undefined,
  };
}

/** FastAPI's `detail`: a string, or a list of `{loc, msg}` validation errors. */
function detailText(detail: unknown): string {
  if (!Array.isArray(detail)) return textOf(detail);
  const messages = detail.map((entry) =>
    isRecord(entry) && typeof entry.msg === "string"
      ? (Array.isArray(entry.loc) ? `${entry.loc.join(".")}: ${entry.msg}` : entry.msg)
      : textOf(entry)
  );
  return messages.join("; ");
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

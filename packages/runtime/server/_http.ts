/**
 * The plain-HTTP pieces of the server: the JSON bodies it answers with outside
 * JSON-RPC (transport refusals `{"error":{"code","message"}}`, all uncacheable) and
 * reading a request body under a byte limit.
 *
 * @module
 */

/** The stable codes of transport-level refusals. */
export type TransportErrorCode =
  | "unauthorized"
  | "login_code_invalid"
  | "origin_not_allowed"
  | "host_not_allowed"
  | "payload_too_large"
  | "invalid_request"
  | "attachment_empty"
  | "attachment_not_supported"
  | "upgrade_required"
  | "request_aborted"
  | "not_found"
  | "thread_not_found"
  | "export_format_invalid"
  | "internal_error";

const BASE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/**
 * A JSON response with the server's standard headers.
 *
 * @param status the HTTP status
 * @param body the JSON text, or null for an empty body
 * @param headers extra headers
 * @returns the response
 */
export function jsonResponse(
  status: number,
  body: string | null,
  headers: Record<string, string> = {},
): Response {
  const merged: Record<string, string> = { ...BASE_HEADERS, ...headers };
  if (body === null) delete merged["content-type"];
  return new Response(body, { status, headers: merged });
}

/**
 * A transport refusal: `{"error":{"code","message"}}`.
 *
 * @param status 400, 401, 403, 404, 413, 415, 421, 426 or 500
 * @param code the stable code
 * @param message a sentence for people, never naming a credential
 * @param headers extra headers
 * @returns the response
 */
export function transportError(
  status: number,
  code: TransportErrorCode,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(status, JSON.stringify({ error: { code, message } }), headers);
}

/**
 * A request body that stopped part-way: the client hung up, or the connection guard closed
 * it for being too slow. Nobody is left to answer, so it is logged as one line, not a trace.
 */
export class RequestBodyAbortedError extends Error {
  /** Stable code. */
  readonly code = "request_aborted";

  /** @param options the read error as `cause` */
  constructor(options?: ErrorOptions) {
    super("The client closed the connection before the request body was complete", options);
    this.name = "RequestBodyAbortedError";
  }
}

/**
 * Reads a request body, refusing it as soon as it is larger than `maxBytes` (a
 * declared Content-Length is refused before reading anything).
 *
 * @param request the request
 * @param maxBytes the limit
 * @returns the bytes, or `"too_large"`
 * @throws {RequestBodyAbortedError} when the body stops before its end
 */
export async function readBodyWithin(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array | "too_large"> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return "too_large";
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  while (true) {
    const { done, value } = await reader.read().catch((error) => {
      throw new RequestBodyAbortedError({ cause: error });
    });
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {/* the peer is gone; nothing left to read */});
      return "too_large";
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

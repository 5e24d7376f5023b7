/**
 * The gateway's error answers through the runtime's protected-value redaction, as RPC
 * errors are (services/dispatcher.ts): an error body may quote a request, a provider's or
 * a tool's words, and so a credential; it is masked before it leaves. Only error answers
 * (status 400 and up, JSON) are read: a stream or a successful answer passes untouched
 * (the stream's own error frames are masked by its encoder).
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { redactValue } from "../security/redact_value.ts";
import type { GatewayEnv } from "./key_auth.ts";

/**
 * The middleware (mount it first, so it sees every answer of its sub-app).
 *
 * @param redact masks protected values in a text
 * @returns the middleware
 */
export function redactErrorBodies(redact: (text: string) => string): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    await next();
    const response = c.res;
    if (response.status < 400) return;
    if (!(response.headers.get("Content-Type") ?? "").includes("application/json")) return;
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return;
    }
    const masked = redactValue(body, redact);
    if (JSON.stringify(masked) === JSON.stringify(body)) return;
    const headers = new Headers(response.headers);
    headers.delete("Content-Length");
    c.res = new Response(JSON.stringify(masked), { status: response.status, headers });
  };
}

/**
 * Per-key CORS of the gateway (off by default): a browser page may call the gateway with
 * a key only from an origin in that key's `allowedOrigins`. Never a wildcard, never
 * credentials (the key travels in `Authorization`, not in cookies).
 *
 * A preflight (`OPTIONS`) carries no `Authorization` header, so it cannot name its key: it
 * is allowed for an origin that some valid (unrevoked) key allows, which tells a page only
 * that some key admits it. The real request is then checked against its own key: its
 * response gets `Access-Control-Allow-Origin` only when that key allows the origin, so a
 * page allowed by key A cannot read answers made with key B. A disallowed origin gets no
 * CORS headers at all and the browser blocks the answer. The preflight's grant is Hono's
 * `cors`; the real request's is set once the key check ran (Hono's `cors` decides the origin
 * before the route runs, when the key is not known yet).
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { GatewayKey } from "@daedalus/protocol";
import type { GatewayEnv } from "./key_auth.ts";
import type { GatewayKeyStore } from "./key_store.ts";
import { GATEWAY_CORS_MAX_AGE_SECONDS } from "./limits.ts";

/** The methods the gateway's routes answer (Dify's and AG-UI's clients use these). */
export const GATEWAY_CORS_METHODS = ["GET", "POST", "DELETE"] as const;

/**
 * The request headers a page may send: the key, the JSON body's type, and the `Accept`
 * AG-UI's `HttpAgent` sets for its event stream.
 */
export const GATEWAY_CORS_HEADERS = ["Authorization", "Content-Type", "Accept"] as const;

/**
 * The origin of an `allowedOrigins` entry (`https://app.example` from
 * `https://app.example/`), or null when it is not an http(s) URL.
 *
 * @param entry a URL as stored in a key's profile
 * @returns its origin, or null
 */
export function originOf(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.origin;
}

/**
 * Whether a key lets a page at `origin` call with it.
 *
 * @param key the key's record
 * @param origin the request's `Origin` header ("" when absent)
 * @returns true only for an exact origin match in its `allowedOrigins`
 */
export function keyAllowsOrigin(key: GatewayKey, origin: string): boolean {
  // "null" (a file: page, a sandboxed frame) is never an origin anyone allowed.
  if (origin === "" || origin === "null" || key.revokedAt !== null) return false;
  return (key.profile.allowedOrigins ?? []).some((entry) => originOf(entry) === origin);
}

/**
 * Answers every `OPTIONS` request (mount it before the key check, which a preflight cannot
 * pass): the CORS grant when some valid key allows the origin, a bare 204 without any CORS
 * header otherwise.
 *
 * @param keys the app keys
 * @returns the handler
 */
export function gatewayPreflight(keys: GatewayKeyStore): MiddlewareHandler<GatewayEnv> {
  const grant = cors({
    origin: (origin) => origin,
    allowMethods: [...GATEWAY_CORS_METHODS],
    allowHeaders: [...GATEWAY_CORS_HEADERS],
    maxAge: GATEWAY_CORS_MAX_AGE_SECONDS,
  });
  return async (c, next) => {
    const origin = c.req.header("Origin") ?? "";
    if (keys.list().some((key) => keyAllowsOrigin(key, origin))) return await grant(c, next);
    c.header("Vary", "Origin");
    return c.body(null, 204);
  };
}

/** Response headers a page may read beyond the safelisted ones: a 429's wait. */
export const GATEWAY_CORS_EXPOSED = ["Retry-After"] as const;

/**
 * Adds the CORS grant to a request's response when its key allows its origin, and
 * `Vary: Origin` always (the answer depends on it, so a cache must not serve one origin's
 * answer to another). Mount it before the key check: it looks at `gatewayKey` after the
 * rest ran, so a valid key's 429 gets the grant (its page can read `Retry-After`), and a
 * 401 (no valid key) does not.
 *
 * @returns the middleware
 */
export function gatewayCors(): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    await next();
    const origin = c.req.header("Origin") ?? "";
    c.res.headers.append("Vary", "Origin");
    const key = c.get("gatewayKey") as GatewayKey | undefined;
    if (key === undefined || !keyAllowsOrigin(key, origin)) return;
    c.res.headers.set("Access-Control-Allow-Origin", origin);
    c.res.headers.set("Access-Control-Expose-Headers", GATEWAY_CORS_EXPOSED.join(","));
  };
}

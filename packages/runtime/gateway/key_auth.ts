/**
 * The app-key check of every gateway route: `Authorization: Bearer app-…` (the scheme
 * compared case-insensitively, as Dify does), a valid unrevoked key, then the key's rate
 * limit. The owner token and browser sessions are never accepted here: a gateway caller
 * gets exactly what its key's profile allows. Refusals use the calling protocol's error
 * form (Dify's `{code, message, status}` by default).
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import type { GatewayKey } from "@daedalus/protocol";
import type { GatewayKeyStore } from "./key_store.ts";
import type { KeyRateLimiter } from "./rate_limiter.ts";

/** The Hono variables the middleware sets for the routes after it. */
export interface GatewayEnv {
  Variables: {
    /** The accepted key's record (its profile decides what the request may do). */
    gatewayKey: GatewayKey;
  };
}

/** Why a gateway request was refused before its route ran. */
export type GatewayRefusal =
  | { status: 401; code: "unauthorized"; message: string }
  | { status: 429; code: "too_many_requests"; message: string; retryAfterSeconds: number };

/** What {@linkcode gatewayKeyAuth} needs. */
export interface GatewayKeyAuthOptions {
  /** The keys. */
  keys: GatewayKeyStore;
  /** The per-key rate limit. */
  limiter: KeyRateLimiter;
  /** Told each accepted key, so the runtime keeps it out of anything it stores or sends. */
  onKeyAccepted?: (key: string) => void;
  /** The response of a refusal; default Dify's `{code, message, status}`. */
  refuse?: (c: Context, refusal: GatewayRefusal) => Response;
}

/** Dify's messages for each way the header can be wrong (`service_api/wraps.py`). */
export const UNAUTHORIZED_MESSAGES = {
  missing: "Authorization header must be provided and start with 'Bearer'",
  scheme: "Authorization scheme must be 'Bearer'",
  invalid: "Access token is invalid",
} as const;

/**
 * A refusal in Dify's error form, with `Retry-After` on a 429.
 *
 * @param c the request's context
 * @param refusal why
 * @returns the response
 */
export function difyRefusal(c: Context, refusal: GatewayRefusal): Response {
  if (refusal.status === 429) c.header("Retry-After", String(refusal.retryAfterSeconds));
  return c.json(
    { code: refusal.code, message: refusal.message, status: refusal.status },
    refusal.status,
  );
}

/**
 * The key a request's `Authorization` header presents, read as Dify reads it (split on
 * whitespace, the scheme compared case-insensitively); whether the key is valid is the
 * caller's question.
 *
 * @param authorization the `Authorization` header, or null
 * @returns the key, or the 401 refusal for a missing or malformed header
 */
export function bearerKey(
  authorization: string | null,
): { ok: true; key: string } | { ok: false; refusal: GatewayRefusal } {
  const parts = authorization?.trim().split(/\s+/) ?? [];
  if (parts.length === 0 || parts[0] === "") return unauthorized(UNAUTHORIZED_MESSAGES.missing);
  if (parts.length !== 2) return unauthorized(UNAUTHORIZED_MESSAGES.missing);
  if (parts[0].toLowerCase() !== "bearer") return unauthorized(UNAUTHORIZED_MESSAGES.scheme);
  return { ok: true, key: parts[1] };
}

/**
 * A 401 refusal.
 *
 * @param message one of {@linkcode UNAUTHORIZED_MESSAGES}
 * @returns the refusal
 */
export function unauthorized(message: string): { ok: false; refusal: GatewayRefusal } {
  return { ok: false, refusal: { status: 401, code: "unauthorized", message } };
}

/**
 * Checks the presented app key of a request.
 *
 * @param authorization the `Authorization` header, or null
 * @param keys the keys
 * @returns the key and its record, or the 401 refusal
 */
export function checkAppKey(
  authorization: string | null,
  keys: GatewayKeyStore,
): { ok: true; key: string; gatewayKey: GatewayKey } | { ok: false; refusal: GatewayRefusal } {
  const presented = bearerKey(authorization);
  if (!presented.ok) return presented;
  const checked = keys.authenticate(presented.key);
  if (!checked.ok) return unauthorized(UNAUTHORIZED_MESSAGES.invalid);
  return { ok: true, key: presented.key, gatewayKey: checked.gatewayKey };
}

/**
 * The middleware: sets `gatewayKey` for the routes after it, or answers 401/429.
 *
 * @param options keys, limiter, and how to refuse
 * @returns the middleware
 */
export function gatewayKeyAuth(options: GatewayKeyAuthOptions): MiddlewareHandler<GatewayEnv> {
  const refuse = options.refuse ?? difyRefusal;
  return async (c, next) => {
    const checked = checkAppKey(c.req.header("Authorization") ?? null, options.keys);
    if (!checked.ok) return refuse(c, checked.refusal);
    options.onKeyAccepted?.(checked.key);
    // Set before the rate check: a 429 is this key's answer too (its CORS grant, cors.ts).
    c.set("gatewayKey", checked.gatewayKey);
    const rate = options.limiter.take(checked.gatewayKey.keyId);
    if (!rate.ok) {
      return refuse(c, {
        status: 429,
        code: "too_many_requests",
        message: `Too many requests with this key; retry in ${rate.retryAfterSeconds} s.`,
        retryAfterSeconds: rate.retryAfterSeconds,
      });
    }
    await next();
  };
}

/**
 * Who may call the server. Programs send `Authorization: Bearer <token>`; a browser
 * trades a one-time login code (see `login_codes.ts`) or the token (`POST /auth/session`)
 * for an HttpOnly, SameSite=Strict session cookie, and a program may offer the token on a
 * WebSocket as the `bearer.<token>` subprotocol.
 * Cookie-authenticated requests must be same-origin; any request that sends a foreign
 * `Origin` is refused whatever it carries.
 *
 * Every refusal is a JSON body with a stable code and the same wording whether a
 * credential was missing or wrong.
 *
 * @module
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { TokenStore } from "./auth_token.ts";
import type { LoginCodeStore } from "./login_codes.ts";
import { checkOrigin } from "./guards.ts";
import type { SessionStore } from "./session_store.ts";
import { jsonResponse, readBodyWithin, transportError } from "./_http.ts";
import { AUTH_BODY_MAX_BYTES } from "./limits.ts";

/** The name of the browser session cookie. */
export const SESSION_COOKIE_NAME = "daedalus_session";

/** The prefix of the WebSocket subprotocol that carries a token (`bearer.<token>`). */
export const BEARER_SUBPROTOCOL_PREFIX = "bearer.";

/** How a request proved it may call. */
export type CredentialKind = "bearer" | "subprotocol" | "cookie";

/** What the auth middleware leaves on the context for the handlers after it. */
export interface AuthState {
  /** The credential that was accepted. */
  credential: CredentialKind;
  /** The token generation it was accepted under (see {@linkcode TokenStore}). */
  generation: string;
  /** The session's key when the credential was the cookie, else null. */
  sessionKey: string | null;
}

/** The Hono environment of the server's routes. */
export type ServerEnv = { Variables: { auth: AuthState } };

/** Options of {@linkcode requireAuth}. */
export interface RequireAuthOptions {
  /** The token. */
  tokens: TokenStore;
  /** The browser sessions. */
  sessions: SessionStore;
  /** Accept the `bearer.<token>` WebSocket subprotocol (on `/ws` only). */
  acceptSubprotocol?: boolean;
  /**
   * For reads embedded in the app's own page (an `<img>` sends no `Origin`): a cookie
   * without `Origin` is accepted when the browser marks the request `Sec-Fetch-Site:
   * same-origin`. Only for side-effect-free GET routes.
   */
  sameOriginEmbeds?: boolean;
}

/**
 * Middleware admitting a request with a valid credential: the bearer header, then the
 * subprotocol (if accepted), then the session cookie. A foreign `Origin` is 403
 * whatever the credential; the cookie also needs an `Origin` (403 without one), except
 * for same-origin embeds where the route allows them.
 * Anything else is 401 `unauthorized`.
 *
 * @param options the token, the sessions, whether the subprotocol counts
 * @returns the middleware; it sets `auth` on the context
 */
export function requireAuth(options: RequireAuthOptions): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const origin = checkOrigin(c.req.header("origin"), c.req.header("host"));
    if (origin === "foreign") return originRefused();
    const presented = presentedCredential(c, options.acceptSubprotocol ?? false);
    if (presented === null || presented.kind === "malformed") return unauthorized();
    if (presented.kind === "cookie" && origin !== "same") {
      const embedded = options.sameOriginEmbeds === true && origin === "absent" &&
        c.req.method === "GET" && c.req.header("sec-fetch-site") === "same-origin";
      if (!embedded) return originRefused();
    }
    const auth = await acceptCredential(presented, options);
    if (!auth) return unauthorized();
    c.set("auth", auth);
    await next();
  };
}

/** Options of {@linkcode sessionRoutes}. */
export interface SessionRoutesOptions {
  /** The token. */
  tokens: TokenStore;
  /** The browser sessions. */
  sessions: SessionStore;
  /** The one-time login codes a body `{"code": …}` may spend. */
  loginCodes: LoginCodeStore;
  /** Largest accepted body; default {@linkcode AUTH_BODY_MAX_BYTES}. */
  maxBodyBytes?: number;
  /** Told the key of a session that logged out (to close its WebSockets). */
  onLogout?: (sessionKey: string) => void;
}

/**
 * `POST /auth/session` (trade a one-time login code, JSON body `{"code": …}`, or the
 * token, from the bearer header or a JSON body `{"token": …}`, for the session cookie;
 * 204) and `DELETE /auth/session` (log out; 204). A foreign `Origin` is 403 on both; a
 * code that is unknown, spent or expired is 401 `login_code_invalid`.
 *
 * @param options the token, the sessions, the body limit
 * @returns the routes, to mount at `/`
 */
export function sessionRoutes(options: SessionRoutesOptions): Hono<ServerEnv> {
  const routes = new Hono<ServerEnv>();
  routes.post("/auth/session", async (c) => {
    if (checkOrigin(c.req.header("origin"), c.req.header("host")) === "foreign") {
      return originRefused();
    }
    const offered = await credentialForSession(c, options.maxBodyBytes ?? AUTH_BODY_MAX_BYTES);
    if (offered instanceof Response) return offered;
    if (offered?.kind === "code") {
      const current = await options.tokens.currentGeneration();
      const generation = options.loginCodes.redeem(offered.code, current);
      if (generation === null) return loginCodeRefused();
      return sessionOpened(options.sessions.create(generation));
    }
    const generation = offered === null ? null : await options.tokens.verify(offered.token);
    if (generation === null) return unauthorized();
    return sessionOpened(options.sessions.create(generation));
  });
  routes.delete("/auth/session", (c) => {
    const origin = checkOrigin(c.req.header("origin"), c.req.header("host"));
    const sessionId = getCookie(c, SESSION_COOKIE_NAME);
    if (origin === "foreign" || (sessionId !== undefined && origin === "absent")) {
      return originRefused();
    }
    const key = sessionId === undefined ? null : options.sessions.revoke(sessionId);
    if (key !== null) options.onLogout?.(key);
    return jsonResponse(204, null, {
      "set-cookie": `${SESSION_COOKIE_NAME}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
    });
  });
  return routes;
}

/**
 * Picks the credential token out of a `Sec-WebSocket-Protocol` list.
 *
 * @param header the header value, e.g. `daedalus.rpc.v1, bearer.<token>`
 * @returns the offered protocols split into the real ones and the token (if any)
 */
export function splitOfferedProtocols(
  header: string | undefined,
): { protocols: string[]; token: string | null } {
  const offered = (header ?? "").split(",").map((part) => part.trim()).filter(Boolean);
  const bearer = offered.find((protocol) => protocol.startsWith(BEARER_SUBPROTOCOL_PREFIX));
  return {
    protocols: offered.filter((protocol) => !protocol.startsWith(BEARER_SUBPROTOCOL_PREFIX)),
    token: bearer === undefined ? null : bearer.slice(BEARER_SUBPROTOCOL_PREFIX.length),
  };
}

type Presented =
  | { kind: "bearer" | "subprotocol"; token: string }
  | { kind: "cookie"; sessionId: string }
  | { kind: "malformed" };

function presentedCredential(c: Context<ServerEnv>, acceptSubprotocol: boolean): Presented | null {
  const authorization = c.req.header("authorization");
  if (authorization !== undefined) {
    const token = bearerToken(authorization);
    return token === null ? { kind: "malformed" } : { kind: "bearer", token };
  }
  if (acceptSubprotocol) {
    const { token } = splitOfferedProtocols(c.req.header("sec-websocket-protocol"));
    if (token !== null) return { kind: "subprotocol", token };
  }
  const sessionId = getCookie(c, SESSION_COOKIE_NAME);
  return sessionId === undefined ? null : { kind: "cookie", sessionId };
}

async function acceptCredential(
  presented: Exclude<Presented, { kind: "malformed" }>,
  options: RequireAuthOptions,
): Promise<AuthState | null> {
  if (presented.kind !== "cookie") {
    const generation = await options.tokens.verify(presented.token);
    return generation === null
      ? null
      : { credential: presented.kind, generation, sessionKey: null };
  }
  const generation = await options.tokens.currentGeneration();
  if (generation === null) return null;
  const sessionKey = options.sessions.resolve(presented.sessionId, generation);
  return sessionKey === null ? null : { credential: "cookie", generation, sessionKey };
}

type SessionCredential = { kind: "token"; token: string } | { kind: "code"; code: string };

/**
 * What `POST /auth/session` was offered: the bearer header, else `{"code"}` or
 * `{"token"}` in the body.
 */
async function credentialForSession(
  c: Context<ServerEnv>,
  maxBodyBytes: number,
): Promise<SessionCredential | null | Response> {
  const authorization = c.req.header("authorization");
  if (authorization !== undefined) {
    const token = bearerToken(authorization);
    return token === null ? null : { kind: "token", token };
  }
  const body = await readBodyWithin(c.req.raw, maxBodyBytes);
  if (body === "too_large") {
    return transportError(413, "payload_too_large", "Request body is too large");
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body));
  } catch {
    // The parser's message may quote the body, which may hold a token: never echo it.
    return transportError(
      400,
      "invalid_request",
      'Expected a JSON body {"code": "..."} or {"token": "..."}',
    );
  }
  if (typeof value !== "object" || value === null) return null;
  if ("code" in value) {
    return { kind: "code", code: typeof value.code === "string" ? value.code : "" };
  }
  if (!("token" in value)) return null;
  return typeof value.token === "string" ? { kind: "token", token: value.token } : null;
}

function sessionOpened(sessionId: string): Response {
  return jsonResponse(204, null, {
    "set-cookie": `${SESSION_COOKIE_NAME}=${sessionId}; Path=/; HttpOnly; SameSite=Strict`,
  });
}

function loginCodeRefused(): Response {
  return transportError(
    401,
    "login_code_invalid",
    "This login code is unknown, already used or expired; print a fresh login URL with " +
      "`daedalus login`",
  );
}

function bearerToken(authorization: string): string | null {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  return match ? match[1] : null;
}

function unauthorized(): Response {
  return transportError(401, "unauthorized", "A valid access token or session is required", {
    "www-authenticate": 'Bearer realm="daedalus"',
  });
}

function originRefused(): Response {
  return transportError(403, "origin_not_allowed", "Requests from other origins are refused");
}

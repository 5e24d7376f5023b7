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
import { createHash } from "node:crypto";
import type { TokenStore } from "./auth_token.ts";
import type { LoginCodeStore } from "./login_codes.ts";
import { checkOrigin } from "./guards.ts";
import { readSessionFile, SessionFileWriter } from "./session_file.ts";
import { jsonResponse, readBodyWithin, transportError } from "./_http.ts";
import { AUTH_BODY_MAX_BYTES, SESSIONS_MAX_COUNT } from "./limits.ts";

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

const SESSION_ID_PATTERN = /^[0-9a-f]{64}$/;

/** Options of {@linkcode SessionStore}. */
export interface SessionStoreOptions {
  /** Live sessions kept before the oldest is dropped. */
  maxCount?: number;
  /** `sessions.json` to load at start and keep current; in memory only without one. */
  file?: string;
  /** Told when the file is ignored or cannot be written. */
  onWarning?: (message: string) => void;
  /** Told each new session id (the cookie value, a secret) as it is issued. */
  onSecretIssued?: (secret: string) => void;
}

/**
 * Browser sessions: a random id (the cookie value) bound to the token generation it
 * was issued under. Stored by the SHA-256 of the id, so lookups never compare the
 * secret itself. With a `file`, they survive restarts (see `session_file.ts`); a
 * rotation ends every session.
 */
export class SessionStore {
  readonly #sessions = new Map<string, string>();
  readonly #maxCount: number;
  readonly #writer: SessionFileWriter | null;
  readonly #onSecretIssued: (secret: string) => void;

  /**
   * Makes the store, loading `options.file` when given.
   *
   * @param options the limit and the file
   */
  constructor(options: SessionStoreOptions = {}) {
    this.#maxCount = options.maxCount ?? SESSIONS_MAX_COUNT;
    this.#onSecretIssued = options.onSecretIssued ?? (() => {});
    const onWarning = options.onWarning ?? ((message) => console.error(`auth: ${message}`));
    this.#writer = options.file ? new SessionFileWriter(options.file, onWarning) : null;
    if (options.file) {
      for (const { key, generation } of readSessionFile(options.file, onWarning)) {
        this.#sessions.set(key, generation);
      }
      this.#evictOverflow();
    }
  }

  /** @returns when the file reflects every change so far */
  flushed(): Promise<void> {
    return this.#writer?.flushed() ?? Promise.resolve();
  }

  /** How many sessions are live. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Opens a session.
   *
   * @param generation the token generation the caller proved
   * @returns the session id for the cookie
   */
  create(generation: string): string {
    const id = randomHex(32);
    this.#onSecretIssued(id);
    this.#sessions.set(sessionKeyOf(id), generation);
    this.#evictOverflow();
    this.#save();
    return id;
  }

  /**
   * Finds a live session opened under `generation`.
   *
   * @param sessionId the cookie value
   * @param generation the current token generation
   * @returns the session's key, or null when unknown or opened under an older token
   */
  resolve(sessionId: string, generation: string): string | null {
    if (!SESSION_ID_PATTERN.test(sessionId)) return null;
    const key = sessionKeyOf(sessionId);
    const bound = this.#sessions.get(key);
    if (bound === undefined) return null;
    if (bound === generation) return key;
    this.#sessions.delete(key);
    this.#save();
    return null;
  }

  /**
   * Whether the session with this key is still live under `generation`.
   *
   * @param sessionKey the key {@linkcode resolve} returned
   * @param generation the current token generation
   * @returns true while neither logged out nor rotated away
   */
  isLive(sessionKey: string, generation: string): boolean {
    return this.#sessions.get(sessionKey) === generation;
  }

  /**
   * Ends a session.
   *
   * @param sessionId the cookie value
   * @returns the session's key when it was live, else null
   */
  revoke(sessionId: string): string | null {
    if (!SESSION_ID_PATTERN.test(sessionId)) return null;
    const key = sessionKeyOf(sessionId);
    if (!this.#sessions.delete(key)) return null;
    this.#save();
    return key;
  }

  /**
   * Ends every session not opened under `generation` (after a rotation).
   *
   * @param generation the current generation, or null to end them all
   */
  dropOtherGenerations(generation: string | null): void {
    const before = this.#sessions.size;
    for (const [key, bound] of this.#sessions) {
      if (bound !== generation) this.#sessions.delete(key);
    }
    if (this.#sessions.size !== before) this.#save();
  }

  #evictOverflow(): void {
    for (const key of this.#sessions.keys()) {
      if (this.#sessions.size <= this.#maxCount) break;
      this.#sessions.delete(key);
    }
  }

  #save(): void {
    this.#writer?.save(
      [...this.#sessions].map(([key, generation]) => ({ key, generation })),
    );
  }
}

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

function sessionKeyOf(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("hex");
}

function randomHex(byteCount: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(byteCount));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

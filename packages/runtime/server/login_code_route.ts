/**
 * `POST /auth/login-code`: a program holding the access token (`daedalus login`) asks the
 * running runtime for a fresh one-time login URL, for a second browser or after the
 * start-up one expired. Only the bearer token may ask: a browser session cannot mint
 * codes for someone else.
 *
 * @module
 */
import { Hono } from "hono";
import type { TokenStore } from "./auth_token.ts";
import { requireAuth, type ServerEnv } from "./auth.ts";
import type { SessionStore } from "./session_store.ts";
import { type LoginCodeStore, loginUrlFor } from "./login_codes.ts";
import { jsonResponse, transportError } from "./_http.ts";

/** Options of {@linkcode loginCodeRoute}. */
export interface LoginCodeRouteOptions {
  /** The token. */
  tokens: TokenStore;
  /** The browser sessions (a cookie is recognised, then refused). */
  sessions: SessionStore;
  /** Where minted codes wait. */
  loginCodes: LoginCodeStore;
}

/** What `POST /auth/login-code` answers (200). */
export interface LoginCodeAnswer {
  /** The login URL to open, on the address the caller reached, e.g. `http://127.0.0.1:7420/#code=…`. */
  url: string;
  /** The code alone. */
  code: string;
  /** When it stops working, ISO-8601 UTC. */
  expiresAt: string;
}

/**
 * The route, to mount at `/`.
 *
 * @param options the token, the sessions, the codes
 * @returns the routes; 200 {@linkcode LoginCodeAnswer}, 401 without the bearer token
 */
export function loginCodeRoute(options: LoginCodeRouteOptions): Hono<ServerEnv> {
  const routes = new Hono<ServerEnv>();
  routes.post(
    "/auth/login-code",
    requireAuth({ tokens: options.tokens, sessions: options.sessions }),
    (c) => {
      const auth = c.get("auth");
      if (auth.credential !== "bearer") {
        return transportError(
          401,
          "unauthorized",
          "A login code is minted only for the access token",
        );
      }
      const minted = options.loginCodes.mint(auth.generation);
      // The Host guard already accepted this header: it names this server.
      const base = `http://${c.req.header("host")}/`;
      const answer: LoginCodeAnswer = {
        url: loginUrlFor(base, minted.code),
        code: minted.code,
        expiresAt: new Date(minted.expiresAtMs).toISOString(),
      };
      return jsonResponse(200, JSON.stringify(answer));
    },
  );
  return routes;
}

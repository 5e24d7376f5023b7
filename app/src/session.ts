/**
 * The browser session: the login URL (`/#token=…`) is traded once for the runtime's
 * HttpOnly session cookie (`POST /auth/session`, same origin) and the token is removed
 * from the address bar at once, before anything else can read or log it.
 *
 * @module
 */
import { ClientError, createHttpClient } from "@daedalus/client";

/** What the session check found. */
export type SessionStatus = "ok" | "missing" | "rejected" | "unreachable";

/**
 * Takes `token` out of a URL fragment.
 *
 * @param hash `location.hash`
 * @returns the token and the fragment without it
 */
export function takeToken(hash: string): { token: string | null; rest: string } {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const token = params.get("token");
  params.delete("token");
  const rest = params.toString();
  return { token: token && token.length > 0 ? token : null, rest: rest ? `#${rest}` : "" };
}

/**
 * Trades a token from the address bar (if any) and checks that a session exists.
 *
 * @returns `ok` with a session, `rejected` when the login URL's token was refused,
 *   `missing` without a session, `unreachable` when the runtime does not answer
 */
export async function establishSession(): Promise<SessionStatus> {
  const { token, rest } = takeToken(location.hash);
  if (token !== null) {
    history.replaceState(history.state, "", location.pathname + location.search + rest);
    try {
      const response = await fetch("/auth/session", {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        credentials: "same-origin",
      });
      await response.body?.cancel();
      if (!response.ok) return "rejected";
    } catch {
      return "unreachable";
    }
  }
  try {
    await createHttpClient({ url: location.origin }).call("provider.list");
    return "ok";
  } catch (error) {
    if (error instanceof ClientError && (error.status === 401 || error.status === 403)) {
      return "missing";
    }
    // fetch itself failed: an offline start from the cached shell. Any other answer
    // (a JSON-RPC error, a server error) means the session was accepted.
    return error instanceof TypeError ? "unreachable" : "ok";
  }
}

/**
 * Ends this browser's session (`DELETE /auth/session`; the cookie is cleared and the
 * runtime forgets it), then reloads into the "no session" screen.
 */
export async function logOut(): Promise<void> {
  try {
    const response = await fetch("/auth/session", {
      method: "DELETE",
      credentials: "same-origin",
    });
    await response.body?.cancel();
  } finally {
    location.reload();
  }
}

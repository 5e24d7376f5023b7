/**
 * The browser session: the login URL (`/#code=…`) carries a one-time code, traded once
 * for the runtime's HttpOnly session cookie (`POST /auth/session`, same origin). The code
 * is removed from the address bar at once; the browser still keeps the URL in its
 * history, where the code is already spent. An old `#token=…` URL is removed unused: the
 * access token is for programs, never for a URL a browser remembers.
 *
 * @module
 */
import { ClientError, createHttpClient } from "@daedalus/client";

/** What the session check found. */
export type SessionStatus = "ok" | "missing" | "rejected" | "unreachable";

/** What a login URL's fragment held. */
export interface LoginFragment {
  /** The one-time login code, if any. */
  code: string | null;
  /** Whether it held a legacy `token` (removed, never used). */
  hadToken: boolean;
  /** The fragment without either. */
  rest: string;
}

/**
 * Takes `code` (and any legacy `token`) out of a URL fragment.
 *
 * @param hash `location.hash`
 * @returns the code, whether a token was there, and the fragment without them
 */
export function takeLoginFragment(hash: string): LoginFragment {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const code = params.get("code");
  const hadToken = params.has("token");
  params.delete("code");
  params.delete("token");
  const rest = params.toString();
  return { code: code && code.length > 0 ? code : null, hadToken, rest: rest ? `#${rest}` : "" };
}

/**
 * Trades a login code from the address bar (if any) and checks that a session exists.
 *
 * @returns `ok` with a session, `rejected` when the login URL was refused (its code
 *   spent or expired, or it carried a token), `missing` without a session,
 *   `unreachable` when the runtime does not answer
 */
export async function establishSession(): Promise<SessionStatus> {
  const { code, hadToken, rest } = takeLoginFragment(location.hash);
  if (code !== null || hadToken) {
    history.replaceState(history.state, "", location.pathname + location.search + rest);
  }
  let refused = hadToken && code === null;
  if (code !== null) {
    const traded = await tradeLoginCode(code);
    if (traded === "unreachable") return "unreachable";
    refused = traded === "refused";
  }
  const status = await checkSession();
  // An old login URL reopened from history in a browser that is still signed in is fine.
  return status === "missing" && refused ? "rejected" : status;
}

/** `POST /auth/session {"code"}`: the runtime sets the session cookie on 204. */
async function tradeLoginCode(code: string): Promise<"traded" | "refused" | "unreachable"> {
  try {
    const response = await fetch("/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code }),
      credentials: "same-origin",
    });
    await response.body?.cancel();
    return response.ok ? "traded" : "refused";
  } catch {
    return "unreachable";
  }
}

async function checkSession(): Promise<SessionStatus> {
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

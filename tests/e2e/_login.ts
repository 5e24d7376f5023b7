/**
 * Login URLs for tests: the one a spawned runtime printed on stderr at start-up, and
 * fresh ones minted through `POST /auth/login-code` (what `daedalus login` does). Each
 * carries a one-time code, so a test that signs in twice needs two.
 *
 * @module
 */
import type { ServerProcess } from "./_harness.ts";
import { WAIT_MS } from "./_harness.ts";

const PRINTED_LOGIN_URL = /^Daedalus is running\. Open (\S+)$/m;

/**
 * Waits for the login URL the runtime printed on stderr at start-up.
 *
 * @param server the spawned runtime
 * @param timeoutMs how long to wait for the line
 * @returns the URL, e.g. `http://127.0.0.1:PORT/#code=…`
 * @throws {Error} with the output when no such line appears in time
 */
export async function printedLoginUrl(server: ServerProcess, timeoutMs = WAIT_MS): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const match = PRINTED_LOGIN_URL.exec(server.child.stderr);
    if (match) return match[1]!;
    if (server.child.exited || Date.now() > deadline) {
      throw new Error(`no login URL on stderr\n${server.child.describe()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Mints a fresh login URL from the running runtime with its access token.
 *
 * @param server the spawned runtime
 * @returns the URL with a new one-time code
 * @throws {Error} when the runtime does not answer 200
 */
export async function freshLoginUrl(server: ServerProcess): Promise<string> {
  const response = await fetch(`${server.url}auth/login-code`, {
    method: "POST",
    headers: { authorization: `Bearer ${await server.token()}` },
  });
  const body = await response.text();
  if (response.status !== 200) {
    throw new Error(`POST /auth/login-code answered ${response.status}: ${body}`);
  }
  return (JSON.parse(body) as { url: string }).url;
}

/**
 * The code in a login URL's fragment.
 *
 * @param url a login URL
 * @returns the code
 * @throws {Error} when the URL carries none
 */
export function loginCodeOf(url: string): string {
  const code = new URLSearchParams(new URL(url).hash.slice(1)).get("code");
  if (!code) throw new Error(`no #code= in ${url}`);
  return code;
}

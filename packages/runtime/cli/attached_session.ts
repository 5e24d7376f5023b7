/**
 * A headless command attached to the runtime that holds the home: a @daedalus/client
 * WebSocket session with it behind the {@linkcode HomeSession} interface, so the work
 * shows in its open web app.
 *
 * @module
 */
import { connect } from "@daedalus/client";
import type { MethodName } from "@daedalus/protocol";
import { RUNTIME_VERSION } from "../version.ts";
import { type HomeSession, HomeSessionError } from "./home_session.ts";

/**
 * Connects to the runtime.
 *
 * @param url its base URL
 * @param token the home's access token
 * @param home the home, for messages
 * @returns the session
 * @throws {HomeSessionError} when it does not answer
 */
export async function connectToRuntime(
  url: string,
  token: string,
  home: string,
): Promise<HomeSession> {
  let client;
  try {
    client = await connect({
      url,
      token,
      clientInfo: { name: "daedalus-cli", version: RUNTIME_VERSION },
    });
  } catch (error) {
    throw new HomeSessionError(
      `A runtime holds ${home} but does not answer at ${url}: ` +
        `${(error as Error).message}`,
      { cause: error },
    );
  }
  const connected = client;
  // Closing the session takes the client offline too; only an offline we did not ask for
  // is a lost connection.
  let closing = false;
  const lost = new Promise<string>((resolve) => {
    connected.onStateChange((state) => {
      if (state === "offline" && !closing) {
        resolve(`the connection to the runtime at ${url} was lost`);
      }
    });
  });
  return {
    mode: "attached",
    url,
    call: (method, params) =>
      (connected.call as (m: MethodName, p: unknown) => Promise<never>)(method, params),
    onEvent: (listener) => connected.onEvent(listener),
    lost,
    close: () => {
      closing = true;
      return connected.close();
    },
  };
}

/**
 * The home opened in this process for a headless command: the runtime core (lock taken
 * without waiting, no HTTP server, no app) behind the {@linkcode HomeSession} interface,
 * closed — cancelling its Runs, releasing the lock — when the command ends.
 *
 * @module
 */
import { homePaths } from "@daedalus/storage";
import { createCircuitBreakers } from "@daedalus/tools";
import type { ResultOf } from "@daedalus/protocol";
import { openRuntimeCore } from "../runtime_core.ts";
import { ProtectedValues } from "../security/protected_values.ts";
import { installLogRedaction } from "../security/log_redaction.ts";
import { readAuthFile } from "../server/auth_token.ts";
import type { HomeSession } from "./home_session.ts";
import type { ServeOptions } from "./serve_options.ts";

/**
 * Opens the runtime core on the home.
 *
 * @param options the validated serve options (home, workspaces root, workers, breakers)
 * @returns the session
 * @throws {HomeLockedError} when a runtime holds the home (the caller attaches instead)
 */
export async function openInProcessSession(options: ServeOptions): Promise<HomeSession> {
  const protectedValues = new ProtectedValues();
  const logs = installLogRedaction(() => protectedValues);
  const token = await readAuthFile(homePaths(options.home).auth).then(
    (file) => [file.token],
    () => [],
  );
  let core;
  try {
    core = await openRuntimeCore({
      home: options.home,
      workspacesRoot: options.workspacesRoot,
      workers: options.workers,
      subagentMaxDepth: options.subagentMaxDepth,
      // Taken at once or not at all: a held home means attaching, not waiting.
      lockTimeoutMs: 0,
      // A one-shot process exits when its Run settles: the runtime's after-run model calls
      // would be cut off half-way (a served runtime makes them when run attaches to it).
      threadTitles: false,
      memoryRefinement: false,
      channels: false,
      ...(options.breakerOpenMs === null ? {} : {
        toolBreakers: createCircuitBreakers({ openMs: options.breakerOpenMs }),
        providerBreakers: createCircuitBreakers({ openMs: options.breakerOpenMs }),
      }),
      protectedSecrets: token,
      protectedValues,
    });
  } catch (error) {
    logs.uninstall();
    throw error;
  }
  const opened = core;
  const session = { id: "cli", transport: "websocket" } as const;
  let closed: Promise<void> | undefined;
  return {
    mode: "in_process",
    url: null,
    async call(method, params) {
      const outcome = await opened.dispatcher.dispatch(method, params, session);
      // As a transport does: the events the call committed go out after its answer.
      outcome.afterResponse?.();
      return outcome.result as ResultOf<typeof method>;
    },
    onEvent: (listener) => opened.hub.subscribe(listener),
    lost: new Promise<string>(() => {}),
    close: () =>
      closed ??= (async () => {
        await opened.close();
        logs.uninstall();
      })(),
  };
}

/**
 * `daedalus serve`: starts the runtime, prints one JSON ready line on stdout and the
 * login URL on stderr, and shuts down cleanly on SIGINT, SIGTERM or
 * `runtime.shutdown`.
 *
 * @module
 */
import { startRuntime } from "../runtime.ts";
import { installLogRedaction } from "../security/log_redaction.ts";
import { ProtectedValues } from "../security/protected_values.ts";
import { readServeOptions } from "./serve_options.ts";
import { removeRuntimeAddress, writeRuntimeAddress } from "./runtime_address.ts";
import { LOGIN_CODE_TTL_MS } from "../server/limits.ts";
import { findBuiltApp } from "../server/_static_files.ts";
import { createCircuitBreakers, type ToolDefinition } from "@daedalus/tools";
import type { Provider } from "../providers/provider.ts";

/** What a serve entry may add (the test fixture adds a scripted provider). */
export interface ServeExtras {
  /** Model providers. */
  providers?: Provider[];
  /** Tools. */
  tools?: ToolDefinition<unknown>[];
  /** `false` forces automatic thread titles off (default: off only with DAEDALUS_THREAD_TITLES=0; else config.yaml decides). */
  threadTitles?: boolean;
  /** `false` forces memory refinement off (default: off only with DAEDALUS_MEMORY_REFINEMENT=0; else config.yaml decides). */
  memoryRefinement?: boolean;
  /** The built app to serve (default: `app/dist` when it holds a build; see `findBuiltApp`). */
  staticRoot?: string;
}

/**
 * Runs `daedalus serve` until it is told to stop.
 *
 * @param flags parsed flags (`--host`, `--port`, `--home`)
 * @param extras providers and tools
 * @returns the exit code
 */
export async function serve(
  flags: ReadonlyMap<string, string>,
  extras: ServeExtras = {},
): Promise<number> {
  const options = readServeOptions(flags, Deno.env.toObject());
  if (!options.loopback) {
    console.error(
      `warning: binding ${options.host}; anyone who can reach this address and has the token can ` +
        "use this runtime",
    );
  }
  // app/dist of the checkout, or the copy embedded in a compiled executable.
  const staticRoot = extras.staticRoot ?? await findBuiltApp();
  // Every log line of the runtime is redacted (a credential in an error message).
  const protectedValues = new ProtectedValues();
  const logs = installLogRedaction(() => protectedValues);
  const runtime = await startRuntime({
    home: options.home,
    workspacesRoot: options.workspacesRoot,
    workers: options.workers,
    subagentMaxDepth: options.subagentMaxDepth,
    host: options.host,
    port: options.port,
    serverLimits: {
      httpHeaderReadTimeoutMs: options.httpHeaderReadTimeoutMs,
      httpBodyReadTimeoutMs: options.httpBodyReadTimeoutMs,
    },
    // The environment can only force a call off; config.yaml's `auxiliary` switches it live.
    threadTitles: Deno.env.get("DAEDALUS_THREAD_TITLES") !== "0",
    memoryRefinement: Deno.env.get("DAEDALUS_MEMORY_REFINEMENT") !== "0",
    // DAEDALUS_BREAKER_OPEN_MS shortens (or lengthens) every breaker's open period: an
    // end-to-end test sees a probe close a breaker without waiting 30 s.
    ...(options.breakerOpenMs === null ? {} : {
      toolBreakers: createCircuitBreakers({ openMs: options.breakerOpenMs }),
      providerBreakers: createCircuitBreakers({ openMs: options.breakerOpenMs }),
    }),
    ...extras,
    staticRoot,
    protectedValues,
  });
  const stop = () => void runtime.shutdown();
  Deno.addSignalListener("SIGINT", stop);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
  // `daedalus run` attaches to this runtime through it (written before
  // the ready line, so whoever reads that line finds it).
  await writeRuntimeAddress(options.home, { url: runtime.url, pid: Deno.pid }).catch((error) =>
    console.error(
      `runtime.json cannot be written (${error.message}); \`daedalus run\` cannot attach`,
    )
  );
  console.log(JSON.stringify({
    ready: true,
    url: runtime.url,
    port: runtime.port,
    home: options.home,
    pid: Deno.pid,
  }));
  // A one-time code, never the token: browsers keep the URLs they open.
  console.error(`Daedalus is running. Open ${await runtime.loginUrl()}`);
  console.error(
    `That login URL works once, for ${LOGIN_CODE_TTL_MS / 60_000} minutes; ` +
      "`daedalus login` (deno task login) prints a fresh one.",
  );
  await runtime.shutdownRequested;
  await removeRuntimeAddress(options.home, Deno.pid);
  await runtime.shutdown();
  Deno.removeSignalListener("SIGINT", stop);
  if (Deno.build.os !== "windows") Deno.removeSignalListener("SIGTERM", stop);
  console.error("Daedalus stopped.");
  logs.uninstall();
  return 0;
}

/**
 * `daedalus serve` options from flags and `DAEDALUS_*` variables, validated up
 * front: a bad value stops start-up with a message naming the value and what is
 * allowed. A flag wins over its variable.
 *
 * @module
 */
import { resolveHome, resolveWorkspacesRoot } from "@daedalus/storage";
import {
  AGENT_WORKERS_DEFAULT,
  AGENT_WORKERS_MAX,
  AGENT_WORKERS_MIN,
  DEFAULT_PORT,
  SUBAGENT_MAX_DEPTH_DEFAULT,
  SUBAGENT_MAX_DEPTH_MAX,
  SUBAGENT_MAX_DEPTH_MIN,
} from "../limits.ts";
import { HTTP_BODY_READ_TIMEOUT_MS, HTTP_HEADER_READ_TIMEOUT_MS } from "../server/limits.ts";

/** Shortest HTTP read timeout a variable may set: below it a slow but honest client fails. */
const HTTP_TIMEOUT_MIN_MS = 100;

/** Longest HTTP read timeout a variable may set. */
const HTTP_TIMEOUT_MAX_MS = 3_600_000;

/**
 * Shortest wait of an open circuit breaker a variable may set: below it a failing tool or
 * provider is probed again almost at once, and the breaker protects nothing.
 */
const BREAKER_OPEN_MIN_MS = 100;

/** Longest wait of an open circuit breaker a variable may set: a day, the breakers' own cap. */
const BREAKER_OPEN_MAX_MS = 86_400_000;

/** Validated options of `daedalus serve`. */
export interface ServeOptions {
  /** Address to bind; 127.0.0.1 unless `--host` says otherwise. */
  host: string;
  /** Port; 0 picks a free one. */
  port: number;
  /** The runtime home. */
  home: string;
  /** Where managed thread workspaces are made. */
  workspacesRoot: string;
  /** Most Runs at once. */
  workers: number;
  /** Deepest sub-agent nesting. */
  subagentMaxDepth: number;
  /** Whether the bound address is a loopback one. */
  loopback: boolean;
  /** Longest a request's header block may take (`DAEDALUS_HTTP_HEADER_TIMEOUT_MS`). */
  httpHeaderReadTimeoutMs: number;
  /** Longest a request's body may take (`DAEDALUS_HTTP_BODY_TIMEOUT_MS`). */
  httpBodyReadTimeoutMs: number;
  /**
   * How long an open tool or provider circuit breaker waits before its probe
   * (`DAEDALUS_BREAKER_OPEN_MS`), or null for the breakers' default (30 s).
   */
  breakerOpenMs: number | null;
}

/** A start-up option that cannot be used. */
export class OptionError extends Error {
  /** Stable code. */
  readonly code = "invalid_option";

  /** @param message names the option, the value and what is allowed */
  constructor(message: string) {
    super(message);
    this.name = "OptionError";
  }
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/**
 * Reads and validates the serve options.
 *
 * @param flags parsed `--name value` flags
 * @param env the environment (`DAEDALUS_HOME`, `DAEDALUS_HOST`, `DAEDALUS_PORT`,
 *   `DAEDALUS_AGENT_WORKERS`, `DAEDALUS_WORKSPACES_ROOT`, `DAEDALUS_HTTP_HEADER_TIMEOUT_MS`,
 *   `DAEDALUS_HTTP_BODY_TIMEOUT_MS`, `DAEDALUS_BREAKER_OPEN_MS`, `HOME`/`USERPROFILE`)
 * @returns the options
 * @throws {OptionError} naming the bad value and the allowed range
 */
export function readServeOptions(
  flags: ReadonlyMap<string, string>,
  env: Readonly<Record<string, string | undefined>>,
): ServeOptions {
  for (const name of flags.keys()) {
    if (!["host", "port", "home"].includes(name)) {
      throw new OptionError(`Unknown option --${name} (serve takes --host, --port and --home)`);
    }
  }
  const host = flags.get("host") ?? env.DAEDALUS_HOST ?? "127.0.0.1";
  if (!/^[A-Za-z0-9.:\-\[\]]{1,253}$/.test(host)) {
    throw new OptionError(`Host "${host}" is not a host name or IP address`);
  }
  const port = integerOption(
    flags.has("port") ? "--port" : "DAEDALUS_PORT",
    flags.get("port") ?? env.DAEDALUS_PORT,
    DEFAULT_PORT,
    0,
    65535,
  );
  const workers = integerOption(
    "DAEDALUS_AGENT_WORKERS",
    env.DAEDALUS_AGENT_WORKERS,
    AGENT_WORKERS_DEFAULT,
    AGENT_WORKERS_MIN,
    AGENT_WORKERS_MAX,
  );
  const subagentMaxDepth = integerOption(
    "DAEDALUS_SUBAGENT_MAX_DEPTH",
    env.DAEDALUS_SUBAGENT_MAX_DEPTH,
    SUBAGENT_MAX_DEPTH_DEFAULT,
    SUBAGENT_MAX_DEPTH_MIN,
    SUBAGENT_MAX_DEPTH_MAX,
  );
  const homeFlag = flags.get("home");
  const home = resolveHome({ env: homeFlag ? { ...env, DAEDALUS_HOME: homeFlag } : env });
  return {
    host,
    port,
    home,
    workspacesRoot: resolveWorkspacesRoot({ env }),
    workers,
    subagentMaxDepth,
    loopback: LOOPBACK_HOSTS.has(host),
    httpHeaderReadTimeoutMs: integerOption(
      "DAEDALUS_HTTP_HEADER_TIMEOUT_MS",
      env.DAEDALUS_HTTP_HEADER_TIMEOUT_MS,
      HTTP_HEADER_READ_TIMEOUT_MS,
      HTTP_TIMEOUT_MIN_MS,
      HTTP_TIMEOUT_MAX_MS,
    ),
    httpBodyReadTimeoutMs: integerOption(
      "DAEDALUS_HTTP_BODY_TIMEOUT_MS",
      env.DAEDALUS_HTTP_BODY_TIMEOUT_MS,
      HTTP_BODY_READ_TIMEOUT_MS,
      HTTP_TIMEOUT_MIN_MS,
      HTTP_TIMEOUT_MAX_MS,
    ),
    // Unset keeps the breakers' own default (packages/tools/limits.ts), not a copy of it.
    breakerOpenMs: env.DAEDALUS_BREAKER_OPEN_MS
      ? integerOption(
        "DAEDALUS_BREAKER_OPEN_MS",
        env.DAEDALUS_BREAKER_OPEN_MS,
        BREAKER_OPEN_MIN_MS,
        BREAKER_OPEN_MIN_MS,
        BREAKER_OPEN_MAX_MS,
      )
      : null,
  };
}

function integerOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new OptionError(`${name}=${JSON.stringify(raw)} is not an integer from ${min} to ${max}`);
  }
  return value;
}

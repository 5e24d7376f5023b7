/**
 * `daedalus login`: asks the running runtime for a fresh one-time login URL and prints it
 * on stdout — for a second browser, or after the one printed at start-up was used or
 * expired. It reads the access token from `<home>/auth.json` (never creating one) and
 * reaches the runtime at the address it published in `<home>/runtime.json` (so one started
 * on port 0 is found too), or, with `--host`/`--port` or when none is published, where
 * `daedalus serve` would listen with the same `--host`, `--port`, `--home` and
 * `DAEDALUS_*` variables.
 *
 * @module
 */
import { homePaths } from "@daedalus/storage";
import { readServeOptions } from "./serve_options.ts";
import { readAuthFile } from "../server/auth_token.ts";
import { formatHostHeader } from "../server/guards.ts";
import { LOGIN_REQUEST_TIMEOUT_MS } from "../server/limits.ts";
import { readRuntimeAddress, runtimeAddressPath } from "./runtime_address.ts";

/** Why `daedalus login` could not print a URL. */
export class LoginCommandError extends Error {
  /** Stable code. */
  readonly code: "runtime_unreachable" | "login_refused" | "invalid_option";

  /**
   * Makes the error.
   *
   * @param code what went wrong
   * @param message what to do about it, never naming the token
   * @param options the original error as `cause`
   */
  constructor(code: LoginCommandError["code"], message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "LoginCommandError";
    this.code = code;
  }
}

/**
 * Runs `daedalus login`.
 *
 * @param flags parsed flags (`--host`, `--port`, `--home`)
 * @param env the environment (`DAEDALUS_HOST`, `DAEDALUS_PORT`, `DAEDALUS_HOME`, `HOME`)
 * @returns the exit code (0 with the URL on stdout)
 * @throws {LoginCommandError} when the runtime cannot be reached or refuses
 * @throws {AuthFileError} when `auth.json` is missing or invalid
 */
export async function login(
  flags: ReadonlyMap<string, string>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  for (const name of flags.keys()) {
    if (!["host", "port", "home"].includes(name)) {
      throw new LoginCommandError(
        "invalid_option",
        `Unknown option --${name} (login takes --host, --port and --home)`,
      );
    }
  }
  const options = readServeOptions(flags, env);
  // The runtime holding the home publishes where it listens (runtime.json): that finds a
  // runtime started on port 0, or with other flags than this command got. An explicit
  // --host or --port names the runtime instead.
  const published = flags.has("host") || flags.has("port")
    ? null
    : await readRuntimeAddress(options.home);
  if (published === null && options.port === 0) {
    throw new LoginCommandError(
      "invalid_option",
      "login needs the runtime's real port, not 0 (no runtime publishes its address in " +
        `${runtimeAddressPath(options.home)})`,
    );
  }
  const { token } = await readAuthFile(homePaths(options.home).auth);
  // A runtime bound to every interface is reached on loopback.
  const host = options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host;
  const base = published
    ? new URL(published.url).origin
    : `http://${formatHostHeader(host, options.port)}`;
  const response = await askForCode(base, token);
  if (response.status === 401) {
    await response.body?.cancel();
    throw new LoginCommandError(
      "login_refused",
      `The runtime at ${base} refused the token in ${homePaths(options.home).auth} ` +
        "(is it running on another home?)",
    );
  }
  const answer = await response.json().catch(() => null) as { url?: unknown; expiresAt?: unknown };
  if (!response.ok || typeof answer?.url !== "string") {
    throw new LoginCommandError(
      "runtime_unreachable",
      `${base} did not answer like a Daedalus runtime (HTTP ${response.status})`,
    );
  }
  console.log(answer.url);
  console.error(`Open that URL in your browser: it works once, until ${answer.expiresAt}.`);
  return 0;
}

async function askForCode(base: string, token: string): Promise<Response> {
  try {
    return await fetch(`${base}/auth/login-code`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(LOGIN_REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new LoginCommandError(
      "runtime_unreachable",
      `No Daedalus runtime answers at ${base}: start it with \`deno task start\`, or pass ` +
        "the --port and --home it runs with",
      { cause: error },
    );
  }
}

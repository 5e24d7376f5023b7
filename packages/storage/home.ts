/**
 * Where the runtime keeps its data: the runtime home (`DAEDALUS_HOME`, default
 * `~/.daedalus`), the files and directories inside it, and the root of managed thread
 * workspaces (`DAEDALUS_WORKSPACES_ROOT`, default `~/Documents/Daedalus`).
 *
 * @module
 */
import { posix, win32 } from "node:path";
import { HomePathError, StorageError } from "./errors.ts";
import { HOME_DIR_MODE, WORKSPACE_SUFFIX_HEX_CHARS } from "./limits.ts";

/** Overrides for resolving home paths; every field defaults to the running process. */
export interface HomeResolveOptions {
  /** Environment to read instead of the process environment (only the named variables are read). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The user's home directory, instead of `HOME` (or `USERPROFILE` on Windows). */
  homeDir?: string;
  /** Operating system whose path rules apply; defaults to `Deno.build.os`. */
  os?: typeof Deno.build.os;
}

/** Absolute paths of everything inside one runtime home. */
export interface HomePaths {
  /** The runtime home itself. */
  readonly home: string;
  /** `config.yaml`: providers, models, disabled skills. */
  readonly config: string;
  /** `state.db`: the journal and its projections. */
  readonly stateDb: string;
  /** `memory.db`: long-term memory. */
  readonly memoryDb: string;
  /** `runtime.lock`: held by the one runtime using this home. */
  readonly lock: string;
  /** `auth.json`: the access token. */
  readonly auth: string;
  /** `sessions.json`: hashed browser sessions, so the app stays signed in across restarts. */
  readonly sessions: string;
  /** `backups/`: offline backups, never overwritten. */
  readonly backups: string;
  /** `artifacts/`: large tool results. */
  readonly artifacts: string;
  /** `processes/`: managed process output and metadata. */
  readonly processes: string;
  /** `skills/`: user skills. */
  readonly skills: string;
  /** `attachments/`: uploaded attachments, content-addressed; created on first upload. */
  readonly attachments: string;
  /** `logs/`: file logs, created only when file logging is on. */
  readonly logs: string;
  /**
   * `deletions/`: one manifest per thread deletion in progress, naming the runtime's own
   * files of the thread to remove once the deletion commits; created on first use.
   */
  readonly deletions: string;
}

const HOME_ENV = "DAEDALUS_HOME";
const WORKSPACES_ROOT_ENV = "DAEDALUS_WORKSPACES_ROOT";
const HOME_DIR_NAME = ".daedalus";
const WORKSPACES_DIR_NAMES = ["Documents", "Daedalus"] as const;
const THREAD_ID_PATTERN = /^thread_[0-9a-f]{32}$/;

/**
 * Resolves the runtime home: `DAEDALUS_HOME` when set and non-empty, else `~/.daedalus`
 * (`%USERPROFILE%\.daedalus` on Windows).
 *
 * @param options environment, home directory and OS to use instead of the process's
 * @returns the absolute, normalized home directory (it may not exist yet)
 * @throws {HomePathError} `home_path_relative` if `DAEDALUS_HOME` is not absolute,
 * `home_dir_unknown` if the user's home directory is unknown
 * @example
 * ```ts
 * resolveHome({ env: { DAEDALUS_HOME: "/srv/daedalus" } }); // "/srv/daedalus"
 * ```
 */
export function resolveHome(options: HomeResolveOptions = {}): string {
  const path = pathApi(options);
  const override = readEnv(options, HOME_ENV);
  if (override !== undefined) return requireAbsolute(path, override, HOME_ENV);
  return path.join(userHomeDir(options), HOME_DIR_NAME);
}

/**
 * Resolves the root of managed thread workspaces: `DAEDALUS_WORKSPACES_ROOT` when set and
 * non-empty, else `~/Documents/Daedalus`.
 *
 * @param options environment, home directory and OS to use instead of the process's
 * @returns the absolute, normalized workspaces root (it may not exist yet)
 * @throws {HomePathError} `home_path_relative` if `DAEDALUS_WORKSPACES_ROOT` is not
 * absolute, `home_dir_unknown` if the user's home directory is unknown
 */
export function resolveWorkspacesRoot(options: HomeResolveOptions = {}): string {
  const path = pathApi(options);
  const override = readEnv(options, WORKSPACES_ROOT_ENV);
  if (override !== undefined) return requireAbsolute(path, override, WORKSPACES_ROOT_ENV);
  return path.join(userHomeDir(options), ...WORKSPACES_DIR_NAMES);
}

/**
 * Lists the paths inside a runtime home. Pure: touches no file.
 *
 * @param home absolute runtime home, usually from {@linkcode resolveHome}
 * @returns the home's file and directory paths
 * @throws {HomePathError} `home_path_relative` if `home` is not absolute
 */
export function homePaths(home: string): HomePaths {
  const path = Deno.build.os === "windows" ? win32 : posix;
  const root = requireAbsolute(path, home, "The runtime home");
  return {
    home: root,
    config: path.join(root, "config.yaml"),
    stateDb: path.join(root, "state.db"),
    memoryDb: path.join(root, "memory.db"),
    lock: path.join(root, "runtime.lock"),
    auth: path.join(root, "auth.json"),
    sessions: path.join(root, "sessions.json"),
    backups: path.join(root, "backups"),
    artifacts: path.join(root, "artifacts"),
    processes: path.join(root, "processes"),
    skills: path.join(root, "skills"),
    attachments: path.join(root, "attachments"),
    logs: path.join(root, "logs"),
    deletions: path.join(root, "deletions"),
  };
}

/**
 * Creates the runtime home (owner-only, mode 0700, when this call creates it) and its
 * `backups/`, `artifacts/`, `processes/` and `skills/` directories. Existing directories
 * and files are left as they are; `logs/` is created by {@linkcode ensureLogsDir} only.
 *
 * @param paths the home's paths from {@linkcode homePaths}
 * @returns when every directory exists
 * @throws {StorageError} `home_io` if a directory cannot be created
 */
export async function ensureHome(paths: HomePaths): Promise<void> {
  const created = !(await isDirectory(paths.home));
  await makeDirectory(paths.home);
  if (created && Deno.build.os !== "windows") {
    // mkdir's mode is filtered by the umask; the home holds secrets, so set it exactly.
    await Deno.chmod(paths.home, HOME_DIR_MODE);
  }
  for (const dir of [paths.backups, paths.artifacts, paths.processes, paths.skills]) {
    await makeDirectory(dir);
  }
}

/**
 * Creates `<home>/logs/` for file logging, on demand.
 *
 * @param paths the home's paths from {@linkcode homePaths}
 * @returns the logs directory
 * @throws {StorageError} `home_io` if the directory cannot be created
 */
export async function ensureLogsDir(paths: HomePaths): Promise<string> {
  await makeDirectory(paths.logs);
  return paths.logs;
}

/**
 * The directory of a thread's managed workspace:
 * `<root>/<YYYY-MM-DD>/<HHMMSS>-<last 8 hex digits of the thread id>`, dated in local time.
 * Pure: the same inputs always give the same path, so retries and restarts reuse it.
 *
 * @param root the workspaces root from {@linkcode resolveWorkspacesRoot}
 * @param createdAt when the thread was created
 * @param threadId the thread's id (`thread_` + 32 lowercase hex digits)
 * @returns the workspace directory (not created)
 * @throws {RangeError} if `createdAt` is an invalid date
 * @throws {TypeError} if `threadId` is not a thread id
 * @example
 * ```ts
 * managedWorkspacePath("/home/a/Documents/Daedalus", new Date(2026, 9, 1, 10, 0, 0),
 *   "thread_000000000000000000000000" + "0123cdef");
 * // "/home/a/Documents/Daedalus/2026-10-01/100000-0123cdef"
 * ```
 */
export function managedWorkspacePath(root: string, createdAt: Date, threadId: string): string {
  if (Number.isNaN(createdAt.getTime())) {
    throw new RangeError("Workspace creation time is an invalid date");
  }
  if (!THREAD_ID_PATTERN.test(threadId)) {
    throw new TypeError("Workspace thread id must be thread_ followed by 32 lowercase hex digits");
  }
  const day = [
    createdAt.getFullYear().toString().padStart(4, "0"),
    twoDigits(createdAt.getMonth() + 1),
    twoDigits(createdAt.getDate()),
  ].join("-");
  const time = twoDigits(createdAt.getHours()) + twoDigits(createdAt.getMinutes()) +
    twoDigits(createdAt.getSeconds());
  const suffix = threadId.slice(-WORKSPACE_SUFFIX_HEX_CHARS);
  const path = Deno.build.os === "windows" ? win32 : posix;
  return path.join(root, day, `${time}-${suffix}`);
}

function pathApi(options: HomeResolveOptions): typeof posix {
  return (options.os ?? Deno.build.os) === "windows" ? win32 : posix;
}

function readEnv(options: HomeResolveOptions, name: string): string | undefined {
  const value = options.env ? options.env[name] : Deno.env.get(name);
  return value === undefined || value === "" ? undefined : value;
}

function userHomeDir(options: HomeResolveOptions): string {
  const path = pathApi(options);
  const variable = (options.os ?? Deno.build.os) === "windows" ? "USERPROFILE" : "HOME";
  const dir = options.homeDir ?? readEnv(options, variable);
  if (dir === undefined || dir === "") {
    throw new HomePathError(
      "home_dir_unknown",
      `Cannot find the user's home directory: ${variable} is not set; set ${HOME_ENV} instead`,
    );
  }
  return requireAbsolute(path, dir, variable);
}

function requireAbsolute(path: typeof posix, value: string, what: string): string {
  if (!path.isAbsolute(value)) {
    throw new HomePathError(
      "home_path_relative",
      `${what} must be an absolute path, got ${JSON.stringify(value)}`,
    );
  }
  return path.resolve(value);
}

function twoDigits(value: number): string {
  return value.toString().padStart(2, "0");
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw homeIoError(path, error);
  }
}

async function makeDirectory(path: string): Promise<void> {
  try {
    await Deno.mkdir(path, { recursive: true, mode: HOME_DIR_MODE });
  } catch (error) {
    throw homeIoError(path, error);
  }
}

function homeIoError(path: string, cause: unknown): StorageError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StorageError("home_io", `Cannot create directory ${path}: ${reason}`, { cause });
}

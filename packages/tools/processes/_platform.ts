/**
 * The process layer's operating-system seam: everything the process manager asks of the
 * OS — spawning a command with its output appended to its log, observing a process's start
 * time (custody), ending or pausing its whole tree, resizing its terminal — behind one
 * interface with a POSIX adapter (`_spawn.ts`) and a Windows adapter (`_spawn_windows.ts`).
 * Tests hand the manager or the adapters a fake platform or a fake command runner.
 *
 * @module
 */

/** What to spawn. */
export interface SpawnSpec {
  /** Shell command text. */
  command: string;
  /** Working directory. */
  cwd: string;
  /** Full child environment. */
  env: Record<string, string>;
  /** Output file (non-PTY children append to it themselves). */
  logPath: string;
  /** Exit-code file. */
  exitPath: string;
  /** Run under a pseudo-terminal (output piped back to the runtime). */
  pty: boolean;
  /** Initial terminal size. */
  cols: number;
  /** Initial terminal size. */
  rows: number;
}

/** How a whole process tree is ended: asked to stop, or killed. */
export type TreeSignal = "terminate" | "kill";

/** One operating system's way of running and controlling commands. */
export interface ProcessPlatform {
  /** Which adapter this is. */
  readonly name: "posix" | "windows";
  /** Environment variables a child inherits by default. */
  readonly envAllowList: readonly string[];
  /**
   * Builds a child's environment from the runtime's: allow-listed variables plus forced
   * UTF-8 for Python.
   *
   * @param source the runtime's environment
   * @param allow names to keep
   * @returns the child's whole environment
   */
  childEnv(source: Record<string, string>, allow: readonly string[]): Record<string, string>;
  /**
   * Spawns a command as the root of its own tree, stdin piped.
   *
   * @param spec what to run
   * @returns the child
   * @throws {ProcessError} `pty_unavailable`, `spawn_failed`
   */
  spawn(spec: SpawnSpec): Deno.ChildProcess;
  /**
   * When a live process started (epoch ms, 1 s resolution).
   *
   * @param pid the process id
   * @returns the start time, or null when it is gone (or cannot be observed)
   */
  observeStartTime(pid: number): Promise<number | null>;
  /**
   * Ends a process and its descendants; a tree already gone is not an error.
   *
   * @param pid the root's process id
   * @param signal ask it to stop, or kill it
   */
  signalTree(pid: number, signal: TreeSignal): Promise<void>;
  /**
   * Pauses and resumes a tree while its log is cut, or null where the OS cannot (the cut
   * then happens without a pause, and a write landing in that moment may be lost).
   *
   * @param pid the root's process id
   * @returns the pause, or null
   */
  treePause(pid: number): { pause(): void; resume(): void } | null;
  /**
   * Resizes a PTY child's terminal.
   *
   * @param pid the process id of the PTY wrapper
   * @param cols columns
   * @param rows rows
   * @throws {ProcessError} `pty_resize_failed`, `pty_unavailable`
   */
  resizePty(pid: number, cols: number, rows: number): Promise<void>;
}

/**
 * Keeps the allow-listed variables of an environment (and every `LC_*`), adding forced
 * UTF-8 for Python. Names compare case-insensitively when `caseInsensitive` (Windows
 * spells `PATH` as `Path`).
 *
 * @param source the runtime's environment
 * @param allow names to keep
 * @param caseInsensitive whether `Path` matches `PATH`
 * @returns the child's environment
 */
export function filterEnv(
  source: Record<string, string>,
  allow: readonly string[],
  caseInsensitive: boolean,
): Record<string, string> {
  const fold = (name: string) => caseInsensitive ? name.toUpperCase() : name;
  const allowed = new Set(allow.map(fold));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (allowed.has(fold(name)) || fold(name).startsWith("LC_")) env[name] = value;
  }
  return { ...env, PYTHONIOENCODING: "utf-8", PYTHONUTF8: "1" };
}

/**
 * The POSIX adapter ({@linkcode posixPlatform}): how a command is spawned (own session, allow-listed environment, output
 * appended straight to its log so it keeps landing after a runtime crash; PTY through
 * util-linux `script`), how a process's start time is observed (via `ps`, since /proc needs
 * `-A` under Deno) and how a PTY is resized.
 *
 * @module
 */
import { ProcessError } from "./process_error.ts";
import { filterEnv, type ProcessPlatform, type SpawnSpec, type TreeSignal } from "./_platform.ts";

export type { SpawnSpec } from "./_platform.ts";

/** Environment variables a child inherits (plus every `LC_*`). */
export const ENV_ALLOW_LIST: readonly string[] = [
  "PATH",
  "HOME",
  "LANG",
  "LANGUAGE",
  "TERM",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "TZ",
  "COLORTERM",
];

/**
 * The child environment: allow-listed variables plus forced UTF-8 for Python.
 *
 * @param source the runtime's environment
 * @param allow names to keep (`LC_*` always kept)
 * @returns the environment
 */
export function childEnv(
  source: Record<string, string>,
  allow: readonly string[] = ENV_ALLOW_LIST,
): Record<string, string> {
  return filterEnv(source, allow, false);
}

// $1 log, $2 command, $3 exit file. The outer shell stays the group leader and records the
// exit code in a file, so a later runtime can still learn it.
const WRAPPER = 'exec >>"$1" 2>&1; /bin/sh -c "$2"; code=$?; echo "$code" >"$3"; exit "$code"';

/**
 * Spawns a command in its own session (pgid = pid), stdin piped.
 *
 * @param spec what to run
 * @returns the child
 * @throws {ProcessError} `pty_unavailable`, `spawn_failed`
 */
export function spawnCommand(spec: SpawnSpec): Deno.ChildProcess {
  const common = {
    cwd: spec.cwd,
    env: spec.env,
    clearEnv: true,
    stdin: "piped",
    detached: true,
  } as const;
  if (spec.pty) {
    if (Deno.build.os !== "linux") {
      throw new ProcessError("pty_unavailable", "Pseudo-terminals need util-linux script");
    }
    const inner = `stty cols ${spec.cols} rows ${spec.rows} 2>/dev/null; ${spec.command}`;
    try {
      return new Deno.Command("script", {
        ...common,
        args: ["-qfec", inner, "/dev/null"],
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new ProcessError("pty_unavailable", "The script command is not installed", {
          cause: error,
        });
      }
      throw new ProcessError("spawn_failed", "Could not start the command", { cause: error });
    }
  }
  try {
    return new Deno.Command("/bin/sh", {
      ...common,
      args: ["-c", WRAPPER, "daedalus-process", spec.logPath, spec.command, spec.exitPath],
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch (error) {
    throw new ProcessError("spawn_failed", "Could not start the command", { cause: error });
  }
}

/**
 * When a live process started (epoch ms, 1 s resolution), or null when it is gone or a zombie.
 *
 * @param pid the process id
 * @returns the start time or null
 */
export async function observeStartTime(pid: number): Promise<number | null> {
  try {
    const { code, stdout } = await new Deno.Command("ps", {
      args: ["-o", "etimes=,stat=", "-p", String(pid)],
      stdout: "piped",
      stderr: "null",
      env: { LC_ALL: "C" },
    }).output();
    if (code !== 0) return null;
    const [elapsed, stat] = new TextDecoder().decode(stdout).trim().split(/\s+/);
    if (!elapsed || stat?.startsWith("Z")) return null;
    return Date.now() - Number(elapsed) * 1000;
  } catch {
    return null; // ps missing: custody cannot be verified, which the caller treats as gone
  }
}

/**
 * Resizes the pseudo-terminal of a `script` wrapper: `stty -F` on the terminal of its child
 * sets the window size, and the kernel sends SIGWINCH to the foreground job.
 *
 * @param scriptPid pid of the `script` process
 * @param cols columns
 * @param rows rows
 * @throws {ProcessError} `pty_resize_failed`
 */
export async function resizePty(scriptPid: number, cols: number, rows: number): Promise<void> {
  const ps = await new Deno.Command("ps", {
    args: ["-o", "tty=", "--ppid", String(scriptPid)],
    stdout: "piped",
    stderr: "null",
  }).output();
  const tty = new TextDecoder().decode(ps.stdout).trim().split(/\s+/)[0];
  if (!tty || !/^pts\/\d+$/.test(tty)) {
    throw new ProcessError("pty_resize_failed", "The terminal of the process was not found");
  }
  const stty = await new Deno.Command("stty", {
    args: ["-F", `/dev/${tty}`, "cols", String(cols), "rows", String(rows)],
    stdout: "null",
    stderr: "null",
  }).output();
  if (stty.code !== 0) throw new ProcessError("pty_resize_failed", "The terminal refused the size");
}

/**
 * Signals a whole process group (the child is its session's leader, so pgid = pid).
 *
 * @param pid the group leader
 * @param signal the signal
 */
export function signalGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone
  }
}

const TREE_SIGNALS: Readonly<Record<TreeSignal, Deno.Signal>> = {
  terminate: "SIGTERM",
  kill: "SIGKILL",
};

/** Linux and macOS: `/bin/sh`, process groups, `ps`, util-linux `script` for PTYs. */
export const posixPlatform: ProcessPlatform = Object.freeze({
  name: "posix",
  envAllowList: ENV_ALLOW_LIST,
  childEnv,
  spawn: spawnCommand,
  observeStartTime,
  signalTree: (pid: number, signal: TreeSignal) => {
    signalGroup(pid, TREE_SIGNALS[signal]);
    return Promise.resolve();
  },
  treePause: (pid: number) => ({
    pause: () => signalGroup(pid, "SIGSTOP"),
    resume: () => signalGroup(pid, "SIGCONT"),
  }),
  resizePty,
});

/**
 * The Windows adapter ({@linkcode windowsPlatform}): commands run by `cmd.exe`, their trees
 * ended with `taskkill /T`, start times read through PowerShell's `Get-Process`. There is
 * no `script` on Windows, so pseudo-terminals are unavailable (a clear `pty_unavailable`),
 * and no way to pause a tree without FFI (the runtime has no `--allow-ffi`), so a log fold
 * cuts without pausing the writer.
 *
 * What the OS is asked goes through a {@linkcode CommandRunner}, so the adapter is
 * unit-tested on Linux with a fake one; it has not been run on Windows (README).
 *
 * @module
 */
import { ProcessError } from "./process_error.ts";
import { filterEnv, type ProcessPlatform, type SpawnSpec, type TreeSignal } from "./_platform.ts";

/** Environment variables a child inherits on Windows (compared case-insensitively). */
export const WINDOWS_ENV_ALLOW_LIST: readonly string[] = Object.freeze([
  "PATH",
  "PATHEXT",
  "SYSTEMROOT", // many programs (and Winsock) fail without it
  "SYSTEMDRIVE",
  "WINDIR",
  "COMSPEC",
  "TEMP",
  "TMP",
  "USERPROFILE",
  "USERNAME",
  "HOMEDRIVE",
  "HOMEPATH",
  "APPDATA",
  "LOCALAPPDATA",
  "PROGRAMDATA",
  "PROGRAMFILES",
  "PROGRAMFILES(X86)",
  "COMMONPROGRAMFILES",
  "NUMBER_OF_PROCESSORS",
  "PROCESSOR_ARCHITECTURE",
  "OS",
  "LANG",
  "TERM",
  "TZ",
  "COLORTERM",
]);

/** What the adapter asks of the OS: spawning a child, and running a command to its end. */
export interface CommandRunner {
  /**
   * Spawns a child.
   *
   * @param program the executable
   * @param options Deno's command options
   * @returns the child
   */
  spawn(program: string, options: Deno.CommandOptions): Deno.ChildProcess;
  /**
   * Runs a command to its end.
   *
   * @param program the executable
   * @param args its arguments
   * @returns its exit code and stdout
   */
  output(program: string, args: readonly string[]): Promise<{ code: number; stdout: string }>;
}

/** The real runner: `Deno.Command`. */
export const denoRunner: CommandRunner = Object.freeze({
  spawn: (program: string, options: Deno.CommandOptions) =>
    new Deno.Command(program, options).spawn(),
  output: async (program: string, args: readonly string[]) => {
    const { code, stdout } = await new Deno.Command(program, {
      args: [...args],
      stdout: "piped",
      stderr: "null",
      stdin: "null",
    }).output();
    return { code, stdout: new TextDecoder().decode(stdout) };
  },
});

/** The variables the wrapper reads the command, log and exit file from. */
export const WRAPPER_VARS = Object.freeze({
  command: "DAEDALUS_PROCESS_COMMAND",
  log: "DAEDALUS_PROCESS_LOG",
  exit: "DAEDALUS_PROCESS_EXIT",
});

/**
 * The raw `cmd.exe` argument string that runs a command with its output appended to its
 * log and its exit code written to the exit file (so a later runtime can still learn it).
 * The command, log and exit paths travel in environment variables, never inside this
 * string, so no quoting of the user's text is needed: `%^NAME%` is left alone by the
 * outer `cmd` (an undefined name) and loses its caret, so the inner `cmd` expands the
 * command itself and parses it with its own rules; `%^errorlevel%` after `call` is the
 * inner command's exit code (cmd's usual delayed read), and the redirection comes first so
 * a one-digit code is not taken for a handle number.
 *
 * @returns the arguments after `cmd.exe`, passed raw (`windowsRawArguments`)
 */
export function windowsWrapperArgs(): string {
  const { command, log, exit } = WRAPPER_VARS;
  return `/d /s /c "cmd /d /c %^${command}% >>"%${log}%" 2>&1 & >"%${exit}%" call echo %^errorlevel%"`;
}

function requirePid(pid: number): string {
  if (!Number.isSafeInteger(pid) || pid <= 0) {
    throw new ProcessError("invalid_pid", `Not a process id: ${pid}`);
  }
  return String(pid);
}

/**
 * The `taskkill` arguments that end a tree: without `/F` it asks the windows of the tree
 * to close (console programs ignore it, so the manager's grace period ends in a kill),
 * with `/F` it kills. `/T` takes the children; a child whose parent has already exited is
 * not found by it (Windows keeps no process groups, and a Job Object needs FFI).
 *
 * @param pid the root's process id
 * @param signal ask or kill
 * @returns the arguments
 * @throws {ProcessError} `invalid_pid`
 */
export function taskkillArgs(pid: number, signal: TreeSignal): string[] {
  return ["/PID", requirePid(pid), "/T", ...(signal === "kill" ? ["/F"] : [])];
}

/**
 * The PowerShell arguments that print a process's start time as an ISO 8601 UTC instant.
 *
 * @param pid the process id
 * @returns the arguments
 * @throws {ProcessError} `invalid_pid`
 */
export function startTimeArgs(pid: number): string[] {
  return [
    "-NoProfile",
    "-NonInteractive",
    "-Command",
    `(Get-Process -Id ${
      requirePid(pid)
    } -ErrorAction Stop).StartTime.ToUniversalTime().ToString('o')`,
  ];
}

/**
 * Reads what {@linkcode startTimeArgs} printed.
 *
 * @param code PowerShell's exit code
 * @param stdout its output
 * @returns epoch ms, or null when the process was not found or the output is not an instant
 */
export function parseStartTime(code: number, stdout: string): number | null {
  const text = stdout.trim();
  if (code !== 0 || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(text)) {
    return null;
  }
  const ms = Date.parse(text.replace(/(\.\d{3})\d+/, "$1"));
  return Number.isFinite(ms) ? ms : null;
}

const PTY_UNAVAILABLE = "Pseudo-terminals are not available on Windows; run it without pty";

/**
 * The Windows process platform.
 *
 * @param runner what spawns and runs commands (default the real `Deno.Command`)
 * @param shell the command interpreter (default `cmd.exe`, found on PATH)
 * @returns the platform
 */
export function windowsPlatform(
  runner: CommandRunner = denoRunner,
  shell = "cmd.exe",
): ProcessPlatform {
  return Object.freeze({
    name: "windows",
    envAllowList: WINDOWS_ENV_ALLOW_LIST,
    childEnv: (source: Record<string, string>, allow: readonly string[]) =>
      filterEnv(source, allow, true),
    spawn(spec: SpawnSpec): Deno.ChildProcess {
      if (spec.pty) throw new ProcessError("pty_unavailable", PTY_UNAVAILABLE);
      try {
        return runner.spawn(shell, {
          args: [windowsWrapperArgs()],
          windowsRawArguments: true,
          cwd: spec.cwd,
          env: {
            ...spec.env,
            [WRAPPER_VARS.command]: spec.command,
            [WRAPPER_VARS.log]: spec.logPath,
            [WRAPPER_VARS.exit]: spec.exitPath,
          },
          clearEnv: true,
          stdin: "piped",
          stdout: "null",
          stderr: "null",
          detached: true,
        });
      } catch (error) {
        throw new ProcessError("spawn_failed", "Could not start the command", { cause: error });
      }
    },
    async observeStartTime(pid: number): Promise<number | null> {
      try {
        const { code, stdout } = await runner.output("powershell.exe", startTimeArgs(pid));
        return parseStartTime(code, stdout);
      } catch {
        return null; // PowerShell missing: custody cannot be verified, treated as gone
      }
    },
    async signalTree(pid: number, signal: TreeSignal): Promise<void> {
      try {
        await runner.output("taskkill", taskkillArgs(pid, signal));
      } catch {
        // taskkill missing or the pid invalid: nothing more can be done from here
      }
    },
    treePause: () => null,
    resizePty: () => Promise.reject(new ProcessError("pty_unavailable", PTY_UNAVAILABLE)),
  });
}

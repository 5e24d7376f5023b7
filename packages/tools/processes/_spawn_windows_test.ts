/**
 * The Windows adapter through its seam: a fake {@linkcode CommandRunner} records what it
 * would ask of Windows (these machines run Linux; nothing here starts cmd.exe).
 */
import assert from "node:assert/strict";
import { ProcessError } from "./process_error.ts";
import { filterEnv, type SpawnSpec } from "./_platform.ts";
import {
  type CommandRunner,
  parseStartTime,
  startTimeArgs,
  taskkillArgs,
  windowsPlatform,
  windowsWrapperArgs,
  WRAPPER_VARS,
} from "./_spawn_windows.ts";

interface FakeRunner extends CommandRunner {
  spawned: { program: string; options: Deno.CommandOptions }[];
  ran: { program: string; args: readonly string[] }[];
}

const FAKE_CHILD = { pid: 4242 } as unknown as Deno.ChildProcess;

function fakeRunner(
  reply: (program: string, args: readonly string[]) => { code: number; stdout: string } = () => ({
    code: 0,
    stdout: "",
  }),
  spawnError?: Error,
): FakeRunner {
  const runner: FakeRunner = {
    spawned: [],
    ran: [],
    spawn(program, options) {
      if (spawnError) throw spawnError;
      runner.spawned.push({ program, options });
      return FAKE_CHILD;
    },
    output(program, args) {
      runner.ran.push({ program, args });
      return Promise.resolve(reply(program, args));
    },
  };
  return runner;
}

const SPEC: SpawnSpec = {
  command: 'npm run dev && echo "a & b" > out.txt',
  cwd: "C:\\Users\\ada\\Documents\\Daedalus\\ws",
  env: { Path: "C:\\Windows\\system32", SystemRoot: "C:\\Windows" },
  logPath: "C:\\Users\\ada\\.daedalus\\processes\\t\\p\\output.log",
  exitPath: "C:\\Users\\ada\\.daedalus\\processes\\t\\p\\exit",
  pty: false,
  cols: 120,
  rows: 40,
};

function codeOf(run: () => unknown): string {
  try {
    run();
    return "none";
  } catch (error) {
    if (error instanceof ProcessError) return error.code;
    throw error;
  }
}

Deno.test("windows spawn: cmd.exe with the raw wrapper; command, log and exit travel in the environment", () => {
  const runner = fakeRunner();
  const child = windowsPlatform(runner).spawn(SPEC);
  assert.equal(child, FAKE_CHILD);
  assert.equal(runner.spawned.length, 1);
  const [{ program, options }] = runner.spawned;
  assert.equal(program, "cmd.exe");
  assert.deepEqual(options.args, [windowsWrapperArgs()]);
  assert.equal(options.windowsRawArguments, true, "cmd.exe must get the wrapper unquoted");
  assert.equal(options.cwd, SPEC.cwd);
  assert.equal(options.clearEnv, true, "only the allow-listed environment may reach the child");
  assert.equal(options.detached, true, "the tree must outlive the runtime (custody)");
  assert.equal(options.stdin, "piped");
  assert.deepEqual(options.env, {
    ...SPEC.env,
    [WRAPPER_VARS.command]: SPEC.command,
    [WRAPPER_VARS.log]: SPEC.logPath,
    [WRAPPER_VARS.exit]: SPEC.exitPath,
  });
  // The user's text is never spliced into a command line (no quoting to get wrong).
  assert.ok(!String(options.args).includes("npm run dev"));
  assert.ok(!String(options.args).includes(SPEC.logPath));
});

Deno.test("windows wrapper: inner cmd expands the command itself, exit code written first-redirected", () => {
  assert.equal(
    windowsWrapperArgs(),
    '/d /s /c "cmd /d /c %^DAEDALUS_PROCESS_COMMAND% >>"%DAEDALUS_PROCESS_LOG%" 2>&1 & ' +
      '>"%DAEDALUS_PROCESS_EXIT%" call echo %^errorlevel%"',
  );
});

Deno.test("windows: no PTY (a clear pty_unavailable), a spawn failure is spawn_failed", async () => {
  const runner = fakeRunner();
  const platform = windowsPlatform(runner);
  assert.throws(
    () => platform.spawn({ ...SPEC, pty: true }),
    (error: unknown) =>
      error instanceof ProcessError && error.code === "pty_unavailable" &&
      /not available on Windows/.test(error.message),
  );
  assert.equal(runner.spawned.length, 0, "a PTY request must not start anything");
  await assert.rejects(
    platform.resizePty(4242, 80, 24),
    (error: unknown) => error instanceof ProcessError && error.code === "pty_unavailable",
  );
  assert.equal(platform.treePause(4242), null, "Windows cannot pause a tree without FFI");
  const cause = new Deno.errors.NotFound("cmd.exe");
  assert.throws(
    () => windowsPlatform(fakeRunner(undefined, cause)).spawn(SPEC),
    (error: unknown) =>
      error instanceof ProcessError && error.code === "spawn_failed" && error.cause === cause,
  );
});

Deno.test("windows: trees end with taskkill /T (asked, then /F); bad pids are refused", async () => {
  assert.deepEqual(taskkillArgs(42, "terminate"), ["/PID", "42", "/T"]);
  assert.deepEqual(taskkillArgs(42, "kill"), ["/PID", "42", "/T", "/F"]);
  for (const pid of [0, -1, 1.5, Number.NaN, 2 ** 53, Number.POSITIVE_INFINITY]) {
    assert.equal(codeOf(() => taskkillArgs(pid, "kill")), "invalid_pid", `pid ${pid}`);
    assert.equal(codeOf(() => startTimeArgs(pid)), "invalid_pid", `pid ${pid}`);
  }
  const runner = fakeRunner(() => ({ code: 128, stdout: "" })); // 128: no such process
  const platform = windowsPlatform(runner);
  await platform.signalTree(42, "terminate");
  await platform.signalTree(42, "kill");
  await platform.signalTree(-1, "kill"); // refused before taskkill runs, and not thrown
  assert.deepEqual(runner.ran, [
    { program: "taskkill", args: ["/PID", "42", "/T"] },
    { program: "taskkill", args: ["/PID", "42", "/T", "/F"] },
  ]);
});

Deno.test("windows: start time from PowerShell's Get-Process, null when gone or unreadable", async () => {
  assert.deepEqual(startTimeArgs(42), [
    "-NoProfile",
    "-NonInteractive",
    "-Command",
    "(Get-Process -Id 42 -ErrorAction Stop).StartTime.ToUniversalTime().ToString('o')",
  ]);
  const cases: [code: number, stdout: string, expected: number | null][] = [
    [0, "2026-12-02T04:58:16.1234567Z\r\n", Date.parse("2026-12-02T04:58:16.123Z")],
    [0, "2026-12-02T05:58:16.5000000+01:00", Date.parse("2026-12-02T04:58:16.500Z")],
    [0, "2026-12-02T04:58:16Z", Date.parse("2026-12-02T04:58:16Z")],
    [1, "2026-12-02T04:58:16.1234567Z", null], // Get-Process failed: no such process
    [0, "", null],
    [0, "Get-Process : Cannot find a process with the process identifier 42.", null],
    [0, "2026-13-45T99:99:99Z", null],
    [0, "1764651496000", null],
  ];
  for (const [code, stdout, expected] of cases) {
    assert.equal(parseStartTime(code, stdout), expected, `start time from ${code} ${stdout}`);
  }
  const alive = fakeRunner(() => ({ code: 0, stdout: "2026-12-02T04:58:16.0000000Z" }));
  assert.equal(
    await windowsPlatform(alive).observeStartTime(42),
    Date.parse("2026-12-02T04:58:16Z"),
  );
  assert.deepEqual(alive.ran[0], { program: "powershell.exe", args: startTimeArgs(42) });
  const gone = fakeRunner(() => ({ code: 1, stdout: "" }));
  assert.equal(await windowsPlatform(gone).observeStartTime(42), null);
  const broken: CommandRunner = {
    spawn: () => FAKE_CHILD,
    output: () => Promise.reject(new Deno.errors.NotFound("powershell.exe")),
  };
  assert.equal(await windowsPlatform(broken).observeStartTime(42), null);
  assert.equal(await windowsPlatform(alive).observeStartTime(0), null, "a bad pid is not alive");
});

Deno.test("windows environment: allow-listed names match case-insensitively, POSIX's do not", () => {
  const platform = windowsPlatform(fakeRunner());
  const env = platform.childEnv({
    Path: "C:\\Windows\\system32",
    SystemRoot: "C:\\Windows",
    userprofile: "C:\\Users\\ada",
    lc_all: "C",
    OPENAI_API_KEY: "sk-secret",
    DAEDALUS_HOME: "C:\\Users\\ada\\.daedalus",
  }, platform.envAllowList);
  assert.deepEqual(env, {
    Path: "C:\\Windows\\system32",
    SystemRoot: "C:\\Windows",
    userprofile: "C:\\Users\\ada",
    lc_all: "C",
    PYTHONIOENCODING: "utf-8",
    PYTHONUTF8: "1",
  });
  assert.deepEqual(filterEnv({ Path: "x", PATH: "y", lc_all: "C" }, ["PATH"], false), {
    PATH: "y",
    PYTHONIOENCODING: "utf-8",
    PYTHONUTF8: "1",
  });
  for (const name of ["PATH", "SYSTEMROOT", "COMSPEC", "USERPROFILE", "TEMP"]) {
    assert.ok(platform.envAllowList.includes(name), `${name} missing from the Windows allow-list`);
  }
});

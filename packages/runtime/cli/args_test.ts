import assert from "node:assert/strict";
import { flagMap, parseCommandLine, UsageError } from "./args.ts";
import { COMMANDS } from "./commands.ts";
import { commandHelp, overviewHelp } from "./help.ts";

Deno.test("parseCommandLine accepts every command's flags where they are written", () => {
  const cases: [string[], Record<string, unknown>][] = [
    [[], { command: "serve", defaulted: true, positionals: [], values: {}, help: false }],
    [["--port", "0"], { command: "serve", defaulted: true, values: { port: "0" } }],
    [["serve", "--host", "0.0.0.0", "--port=7421"], {
      command: "serve",
      values: { host: "0.0.0.0", port: "7421" },
    }],
    [["--home", "/h", "storage", "check"], {
      command: "storage",
      positionals: ["check"],
      values: { home: "/h" },
    }],
    [["storage", "export", "--thread", "t", "--format", "markdown"], {
      command: "storage",
      positionals: ["export"],
      values: { thread: "t", format: "markdown" },
    }],
    [["token", "--rotate"], { command: "token", values: { rotate: true } }],
    [["run", "hello world"], { command: "run", positionals: ["hello world"], values: {} }],
    [["run", "-", "--json", "-c"], {
      command: "run",
      positionals: ["-"],
      values: { json: true, continue: true },
    }],
    [["run", "--attach", "a.png", "hi", "--attach=b.txt", "--model", "p/m"], {
      command: "run",
      positionals: ["hi"],
      values: { attach: ["a.png", "b.txt"], model: "p/m" },
    }],
    [["run", "--json", "--", "--not-a-flag"], {
      command: "run",
      positionals: ["--not-a-flag"],
      values: { json: true },
    }],
    // What `deno task run -- --json hi` passes: the task's `--` is not the end of the flags.
    [["run", "--", "--json", "hi"], {
      command: "run",
      positionals: ["hi"],
      values: { json: true },
    }],
    [["run", "--", "--", "-x"], { command: "run", positionals: ["-x"] }],
    [["show", "thread_x", "--json"], { command: "show", positionals: ["thread_x"] }],
    [["threads"], { command: "threads", positionals: [] }],
    [["--help"], { command: "serve", defaulted: true, help: true }],
    [["run", "-h"], { command: "run", help: true, defaulted: false }],
    [["help", "run"], { command: "help", positionals: ["run"] }],
    [["storage", "--help"], { command: "storage", help: true }],
    [["version"], { command: "version" }],
  ];
  for (const [args, expected] of cases) {
    const parsed = parseCommandLine(args) as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(expected)) {
      assert.deepEqual(parsed[key], value, `${JSON.stringify(args)}: ${key}`);
    }
  }
});

Deno.test("parseCommandLine refuses what the table does not allow, in one line naming it", () => {
  const cases: [string[], RegExp, string | null][] = [
    [["frobnicate"], /^Unknown command "frobnicate"$/, null],
    [["run", "--nope"], /^Unknown option --nope$/, "run"],
    [["run", "-x"], /^Unknown option -x$/, "run"],
    [["run", "hi", "--rotate"], /^run takes no --rotate option$/, "run"],
    [["serve", "--json"], /^serve takes no --json option$/, "serve"],
    [["run", "--model"], /^--model needs a value$/, null],
    [["run", "--json=yes"], /^--json is a switch and takes no value$/, null],
    [["run", "a", "b"], /^run takes at most 1 argument \(unexpected "b"\)$/, "run"],
    [["threads", "x"], /^threads takes no arguments \(got "x"\)$/, "threads"],
    [["show"], /^show needs THREAD$/, "show"],
    [["storage"], /^storage needs check\|verify/, "storage"],
    [["run", "hi", "--model="], /^--model needs a non-empty value$/, "run"],
    [["version", "--home", "/h"], /^version takes no --home option$/, "version"],
  ];
  for (const [args, message, command] of cases) {
    assert.throws(
      () => parseCommandLine(args),
      (error) => {
        assert.ok(error instanceof UsageError, `${JSON.stringify(args)}: ${error}`);
        assert.match(error.message, message, JSON.stringify(args));
        if (command !== null) assert.equal(error.command, command, JSON.stringify(args));
        assert.equal(error.code, "usage");
        assert.ok(!error.message.includes("\n"), "one line");
        return true;
      },
      JSON.stringify(args),
    );
  }
});

Deno.test("flagMap gives the older commands string values", () => {
  assert.deepEqual(
    [...flagMap({ rotate: true, home: "/h", attach: ["a", "b"] })],
    [["rotate", "true"], ["home", "/h"], ["attach", "a,b"]],
  );
});

Deno.test("the help names every command and every flag of each command", () => {
  const overview = overviewHelp();
  for (const [name, spec] of Object.entries(COMMANDS)) {
    const row = overview.split("\n").find((line) => line.trimStart().startsWith(`${name} `));
    assert.equal(row?.replace(/\s+/g, " ").trim(), `${name} ${spec.summary}`, name);
    const help = commandHelp(name as keyof typeof COMMANDS);
    assert.match(help, new RegExp(`^usage: daedalus ${name}`), name);
    for (const [flag, option] of Object.entries(spec.options)) {
      assert.ok(help.includes(`--${flag}`), `${name} --help lists --${flag}`);
      assert.ok(help.includes(option.description), `${name} --${flag} is described`);
    }
    assert.ok(help.includes("-h, --help"), name);
  }
  assert.match(commandHelp("run"), /--attach FILE…/);
  assert.match(commandHelp("run"), /-c, --continue/);
  assert.match(
    commandHelp("run"),
    /Exit codes: 0 completed, 1 failed or cancelled, 2 usage error, 130/,
  );
});

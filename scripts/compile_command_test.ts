import { LAZY_MODULES } from "../packages/runtime/cli/_load.ts";
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkDenortBin,
  COMPILE_TARGETS,
  compileCommand,
  CompileError,
  type CompileErrorCode,
  compileFailure,
  type CompileTarget,
  EMBEDDED_PATHS,
  ENTRY,
  executableFormat,
  executableName,
  parseCompileArgs,
} from "./compile_command.ts";
import { RUNTIME_FLAGS } from "./runtime_flags.ts";

const LINUX = "x86_64-unknown-linux-gnu";
const WINDOWS = "x86_64-pc-windows-msvc";
const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

function codeOf(run: () => unknown): CompileErrorCode | "none" {
  try {
    run();
    return "none";
  } catch (error) {
    if (error instanceof CompileError) return error.code;
    throw error;
  }
}

Deno.test("parseCompileArgs: targets each once in build order, out dir, help; bad input is usage", () => {
  const cases: [args: string[], expected: ReturnType<typeof parseCompileArgs> | "usage"][] = [
    [[], { targets: [LINUX, WINDOWS], outDir: "dist", help: false }],
    [["--target", WINDOWS], { targets: [WINDOWS], outDir: "dist", help: false }],
    [["--target", WINDOWS, "--target", LINUX], {
      targets: [LINUX, WINDOWS],
      outDir: "dist",
      help: false,
    }],
    [["--target", LINUX, "--target", LINUX], { targets: [LINUX], outDir: "dist", help: false }],
    [["--target=" + LINUX, "--out-dir", "/tmp/x"], {
      targets: [LINUX],
      outDir: "/tmp/x",
      help: false,
    }],
    [["--help"], { targets: [LINUX, WINDOWS], outDir: "dist", help: true }],
    [["-h"], { targets: [LINUX, WINDOWS], outDir: "dist", help: true }],
    [["--target", "aarch64-apple-darwin"], "usage"],
    [["--target"], "usage"],
    [["--out-dir"], "usage"],
    [["--out-dir", " "], "usage"],
    [["--verbose"], "usage"],
    [["serve"], "usage"],
  ];
  for (const [args, expected] of cases) {
    if (expected === "usage") {
      assert.equal(
        codeOf(() => parseCompileArgs(args)),
        "usage",
        `${args.join(" ")} is a usage error`,
      );
    } else {
      assert.deepEqual(parseCompileArgs(args), expected, `parse of ${args.join(" ")}`);
    }
  }
});

Deno.test("executableName: daedalus-<target>, .exe only on Windows", () => {
  assert.equal(executableName(LINUX), "daedalus-x86_64-unknown-linux-gnu");
  assert.equal(executableName(WINDOWS), "daedalus-x86_64-pc-windows-msvc.exe");
});

Deno.test("compileCommand: target, output, lean npm, includes, exactly the shipped flags, entry last", () => {
  for (const target of COMPILE_TARGETS) {
    const command = compileCommand(target, "/out", { PATH: "/usr/bin" });
    const expected = [
      "compile",
      "--target",
      target,
      "--output",
      join("/out", executableName(target)),
      "--node-modules-dir=none",
      "--exclude-unused-npm",
      "--include",
      "app/dist",
      "--include",
      "packages/runtime/tools/sandbox_worker.ts",
      "--include",
      "packages/tools/files/line_search_worker.ts",
      ...LAZY_MODULES.flatMap((module) => ["--include", module]),
      ...RUNTIME_FLAGS,
      "packages/runtime/main.ts",
    ];
    assert.deepEqual(command.args, expected, `the command line for ${target}`);
    assert.equal(command.output, join("/out", executableName(target)));
    // The flags are the one definition's, in its order, and nothing grants more.
    const flags = command.args.filter((arg) => /^--(allow|deny|unstable|v8)/.test(arg));
    assert.deepEqual(flags, [...RUNTIME_FLAGS], "permission flags other than the shipped ones");
    assert.ok(!command.args.includes("-A") && !command.args.includes("--allow-all"));
    // No script arguments after the entry: main.ts's default command is serve, and
    // `daedalus <command>` must keep working.
    assert.equal(command.args.at(-1), ENTRY);
  }
});

Deno.test("compileCommand: DENORT_BIN is passed through, an empty one dropped, colours off", () => {
  const cases: [env: Record<string, string>, denort: string | undefined][] = [
    [{ PATH: "/bin", DENORT_BIN: "/opt/denort" }, "/opt/denort"],
    [{ PATH: "/bin", DENORT_BIN: "" }, undefined],
    [{ PATH: "/bin" }, undefined],
  ];
  for (const [env, denort] of cases) {
    const command = compileCommand(LINUX, "/out", env);
    assert.equal(command.env.DENORT_BIN, denort, `DENORT_BIN from ${JSON.stringify(env)}`);
    assert.equal("DENORT_BIN" in command.env, denort !== undefined, "an empty DENORT_BIN left in");
    assert.equal(command.env.PATH, "/bin", "the parent's environment is kept");
    assert.equal(command.env.NO_COLOR, "1");
  }
  const flags = ["--allow-read"];
  assert.deepEqual(
    compileCommand(LINUX, "/out", {}, flags).args.filter((arg) => arg.startsWith("--allow")),
    flags,
  );
});

Deno.test("executableFormat tells ELF from PE by the first bytes", () => {
  const cases: [bytes: number[], format: ReturnType<typeof executableFormat>][] = [
    [[0x7f, 0x45, 0x4c, 0x46, 2, 1], "elf"],
    [[0x4d, 0x5a, 0x90, 0], "pe"],
    [[0x7f, 0x45, 0x4c], null],
    [[0x4d], null],
    [[], null],
    [[0x23, 0x21, 0x2f, 0x62], null], // "#!/b": a script
    [[0xcf, 0xfa, 0xed, 0xfe], null], // Mach-O
  ];
  for (const [bytes, format] of cases) {
    assert.equal(executableFormat(new Uint8Array(bytes)), format, `format of ${bytes}`);
  }
});

Deno.test("checkDenortBin: the file must be an executable of every target it builds", () => {
  const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46]);
  const pe = new Uint8Array([0x4d, 0x5a, 0, 0]);
  const text = new TextEncoder().encode("hello");
  const cases: [header: Uint8Array, targets: CompileTarget[], code: CompileErrorCode | "none"][] = [
    [elf, [LINUX], "none"],
    [pe, [WINDOWS], "none"],
    [elf, [LINUX, WINDOWS], "denort_bin_wrong_platform"],
    [elf, [WINDOWS], "denort_bin_wrong_platform"],
    [pe, [LINUX], "denort_bin_wrong_platform"],
    [text, [LINUX], "denort_bin_wrong_platform"],
    [elf, [], "none"],
  ];
  for (const [header, targets, code] of cases) {
    assert.equal(
      codeOf(() => checkDenortBin("/opt/denort", header, targets)),
      code,
      `header ${header.slice(0, 2)} for ${targets.join(",")}`,
    );
  }
  assert.throws(
    () => checkDenortBin("/opt/denort", elf, [LINUX, WINDOWS]),
    /DENORT_BIN \(\/opt\/denort\) is a Linux \(ELF\) executable, so it cannot be the base of x86_64-pc-windows-msvc/,
  );
});

Deno.test("compileFailure: an unreachable or missing denort download, anything else", () => {
  const url = "https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip";
  const cases: [output: string, code: CompileErrorCode][] = [
    [
      `Download ${url}\nerror: Writing deno compile executable to temporary file 'x'\n\nCaused by:\n` +
      `    0: Setting up base binary.\n    1: error sending request for url (${url}): client ` +
      "error (Connect): dns error: failed to lookup address information",
      "denort_unreachable",
    ],
    [
      `1: error sending request for url (${url}): client error (Connect): tcp connect error: ` +
      "Connection refused (os error 111)",
      "denort_unreachable",
    ],
    [`Download ${url}\nDownload could not be found, aborting`, "denort_not_found"],
    // A download line alone (it succeeded) and a later error are not the download's fault.
    [`Download ${url}\nerror: Invalid object: Only 64-bit ELF is supported`, "compile_failed"],
    [
      "error: Failed caching npm package 'x@1.0.0'\n 0: error sending request for url " +
      "(https://registry.npmjs.org/x/-/x-1.0.0.tgz): client error (Connect)",
      "compile_failed",
    ],
    ["error: TS2322 [ERROR]: Type 'string' is not assignable to type 'number'.", "compile_failed"],
    ["", "compile_failed"],
  ];
  for (const [output, code] of cases) {
    assert.equal(compileFailure(LINUX, output).code, code, `classified:\n${output}`);
  }
  const sentence = compileFailure(LINUX, cases[0][0]).message;
  assert.match(
    sentence,
    /^deno compile could not download its runtime denort-x86_64-unknown-linux-gnu\.zip/,
  );
  assert.match(sentence, /set DENORT_BIN to a denort executable for x86_64-unknown-linux-gnu/);
  assert.doesNotMatch(sentence, /\n|\. [A-Z]/, "one sentence, one line");
});

async function* sourceFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && entry.name !== "testdata") yield* sourceFiles(path);
    else if (entry.isFile && /\.ts$/.test(entry.name) && !/_(test|bench)\.ts$/.test(entry.name)) {
      yield path;
    }
  }
}

Deno.test("every Worker module the shipped code starts is embedded", async () => {
  // `new URL("./x_worker.ts", import.meta.url)`: deno compile does not follow these.
  const workerUrl = /new URL\("(\.{1,2}\/[^"]+)", import\.meta\.url\)/g;
  const workers = new Set<string>();
  for await (const file of sourceFiles(join(REPO_ROOT, "packages"))) {
    const text = await Deno.readTextFile(file);
    if (!text.includes("Worker(")) continue;
    for (const [, spec] of text.matchAll(workerUrl)) {
      if (!spec.endsWith(".ts")) continue;
      workers.add(relative(REPO_ROOT, join(dirname(file), spec)).replaceAll("\\", "/"));
    }
  }
  assert.ok(workers.size >= 2, `found only ${[...workers]}: the scan is broken`);
  for (const worker of workers) {
    assert.ok(EMBEDDED_PATHS.includes(worker), `${worker} is not in EMBEDDED_PATHS`);
  }
  // The rest are main.ts's modules loaded on use (cli/_load.ts checks that list).
  for (const path of EMBEDDED_PATHS.filter((p) => p.endsWith(".ts") && !LAZY_MODULES.includes(p))) {
    assert.ok(workers.has(path), `${path} is embedded but no shipped code starts it`);
  }
});

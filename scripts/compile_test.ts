/**
 * `deno task compile` as a child process, without real network: the download host made
 * unreachable (a proxy that refuses connections, and a DENO_DIR without cached denorts),
 * `DENORT_BIN` passed through (a stand-in ELF executable as the base), and its input
 * checks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

const SCRIPT = new URL("./compile.ts", import.meta.url).pathname;
const LINUX = "x86_64-unknown-linux-gnu";
const WINDOWS = "x86_64-pc-windows-msvc";

async function runCompile(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stderr: string }> {
  const inherited = Deno.env.toObject();
  delete inherited.DENORT_BIN;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", "--allow-run", SCRIPT, ...args],
    env: { ...inherited, NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

/** A port nothing listens on: bound, then released. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A DENO_DIR sharing this one's caches but not its downloaded denorts (`dl/`). */
async function denoDirWithoutDenort(root: string): Promise<string> {
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  const real = JSON.parse(new TextDecoder().decode(info.stdout)).denoDir as string;
  const dir = join(root, "deno_dir");
  await Deno.mkdir(dir);
  for await (const entry of Deno.readDir(real)) {
    if (entry.name !== "dl") await Deno.symlink(join(real, entry.name), join(dir, entry.name));
  }
  return dir;
}

Deno.test("compile: where dl.deno.land cannot be reached, one sentence and exit 1", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus-compile-" });
  try {
    const proxy = `http://127.0.0.1:${closedPort()}`;
    const { code, stderr } = await runCompile(["--target", LINUX, "--out-dir", join(root, "out")], {
      DENO_DIR: await denoDirWithoutDenort(root),
      // Only the denort download goes to the dead proxy; npm (reachable here) does not.
      HTTPS_PROXY: proxy,
      https_proxy: proxy,
      NO_PROXY: "registry.npmjs.org",
      no_proxy: "registry.npmjs.org",
    });
    assert.equal(code, 1, `exit code\n${stderr}`);
    const last = stderr.trim().split("\n").at(-1) ?? "";
    assert.match(
      last,
      /^compile: deno compile could not download its runtime denort-x86_64-unknown-linux-gnu\.zip from dl\.deno\.land, which this machine cannot reach: set DENORT_BIN to a denort executable for x86_64-unknown-linux-gnu .* \[denort_unreachable\]$/,
    );
    assert.doesNotMatch(stderr, /Stack backtrace|Caused by/, "deno's raw error was printed too");
    assert.deepEqual([...Deno.readDirSync(join(root, "out"))], [], "a partial executable was left");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "compile: DENORT_BIN is the base the executable is built on",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "daedalus-compile-" });
    try {
      // A real ELF executable stands in for denort: deno appends the program to it, and the
      // result runs as the stand-in (exits 0, prints nothing) — a downloaded denort would
      // have started `daedalus serve` instead.
      const denort = join(root, "denort");
      await Deno.copyFile("/bin/true", denort);
      const out = join(root, "out");
      const { code, stderr } = await runCompile(["--target", LINUX, "--out-dir", out], {
        DENORT_BIN: denort,
      });
      assert.equal(code, 0, stderr);
      const executable = join(out, `daedalus-${LINUX}`);
      assert.match(stderr, /compile: wrote .*daedalus-x86_64-unknown-linux-gnu \(\d+\.\d MiB\)/);
      const run = await new Deno.Command(executable, { stdout: "piped", stderr: "piped" }).output();
      assert.equal(run.code, 0, "the executable is not built on DENORT_BIN");
      assert.equal(run.stdout.length + run.stderr.length, 0, "the executable printed something");
      // The embedded app and Worker modules are in it (the file system's names).
      const bytes = await Deno.readFile(executable);
      const text = new TextDecoder("latin1").decode(bytes);
      for (const name of ["manifest.webmanifest", "sandbox_worker.ts", "line_search_worker.ts"]) {
        assert.ok(text.includes(name), `${name} is not embedded`);
      }
      assert.ok(bytes.length > (await Deno.stat(denort)).size + 1024 * 1024, "nothing appended");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("compile: a bad DENORT_BIN or bad arguments stop it before any compile", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus-compile-" });
  try {
    const elf = join(root, "denort");
    await Deno.writeFile(elf, new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]));
    const out = join(root, "out");
    const cases: [args: string[], env: Record<string, string>, code: number, tail: RegExp][] = [
      [["--out-dir", out], { DENORT_BIN: join(root, "missing") }, 1, /\[denort_bin_missing\]$/],
      [
        ["--target", WINDOWS, "--out-dir", out],
        { DENORT_BIN: elf },
        1,
        /\[denort_bin_wrong_platform\]$/,
      ],
      [["--out-dir", out], { DENORT_BIN: elf }, 1, /cannot be the base of x86_64-pc-windows-msvc/],
      [["--target", "arm"], {}, 2, /unknown target "arm".*\[usage\]$/],
      [["--frobnicate"], {}, 2, /\[usage\]$/],
    ];
    for (const [args, env, code, tail] of cases) {
      const result = await runCompile(args, env);
      assert.equal(result.code, code, `${args.join(" ")}: exit code\n${result.stderr}`);
      assert.match(result.stderr.trim(), tail, args.join(" "));
      assert.doesNotMatch(result.stderr, /compile: x86_64/, "it started compiling");
    }
    const help = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", "--allow-env", SCRIPT, "--help"],
    }).output();
    assert.equal(help.code, 0);
    assert.match(new TextDecoder().decode(help.stdout), /^usage: deno task compile/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

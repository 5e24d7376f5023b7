/**
 * `deno task compile [--target T]… [--out-dir DIR]`: one executable per platform,
 * `dist/daedalus-x86_64-unknown-linux-gnu` and `dist/daedalus-x86_64-pc-windows-msvc.exe`,
 * with the built PWA embedded (built first when `app/dist` has no build) and the shipped
 * permission flags baked in. The executable's default command is `serve` (main.ts's own
 * default), so `daedalus` alone serves its embedded app from anywhere.
 *
 * `deno compile` downloads its runtime (denort) from dl.deno.land; where that host cannot
 * be reached the task says so in one sentence and exits 1. `DENORT_BIN` (deno's own
 * variable: the denort file to build on) is checked against every target and passed
 * through. Every stop has a stable code (`CompileErrorCode`); a usage error exits 2.
 *
 * The command lines are built by `compile_command.ts`.
 *
 * @module
 */
import { isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkDenortBin,
  COMPILE_USAGE,
  compileCommand,
  CompileError,
  compileFailure,
  type CompileOptions,
  parseCompileArgs,
} from "./compile_command.ts";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const DENORT_HEADER_BYTES = 4; // enough to tell ELF from PE

/** A path as the person who ran the task reads it best: repository-relative when inside. */
function shown(path: string): string {
  const inside = relative(REPO_ROOT, path);
  return inside.startsWith("..") || isAbsolute(inside) ? path : inside;
}

async function readHeader(path: string): Promise<Uint8Array> {
  let file;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    throw new CompileError(
      "denort_bin_missing",
      `DENORT_BIN names ${path}, which cannot be read (${(error as Error).name}): ` +
        "point it at a denort executable, or unset it",
      { cause: error },
    );
  }
  try {
    const header = new Uint8Array(DENORT_HEADER_BYTES);
    const read = await file.read(header);
    return header.subarray(0, read ?? 0);
  } finally {
    file.close();
  }
}

async function ensureBuiltApp(): Promise<void> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(REPO_ROOT, "scripts", "build_app.ts"), "--if-missing"],
    cwd: REPO_ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  let built = false;
  try {
    built = (await Deno.stat(join(REPO_ROOT, "app", "dist", "index.html"))).isFile;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (code !== 0 || !built) {
    throw new CompileError(
      "app_build_failed",
      "the PWA did not build into app/dist (see deno task build's output above), so there " +
        "is no app to embed",
    );
  }
}

async function compileAll(options: CompileOptions): Promise<void> {
  const env = Deno.env.toObject();
  if (env.DENORT_BIN) {
    checkDenortBin(env.DENORT_BIN, await readHeader(env.DENORT_BIN), options.targets);
  }
  await ensureBuiltApp();
  const outDir = resolve(REPO_ROOT, options.outDir);
  await Deno.mkdir(outDir, { recursive: true });
  for (const target of options.targets) {
    const command = compileCommand(target, outDir, env);
    console.error(`compile: ${target} → ${shown(command.output)}`);
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [...command.args],
      cwd: REPO_ROOT,
      env: { ...command.env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    const output = decoder.decode(stdout) + decoder.decode(stderr);
    if (code !== 0) {
      const failure = compileFailure(target, output);
      if (failure.code === "compile_failed") console.error(output.trim());
      throw failure;
    }
    const { size } = await Deno.stat(command.output);
    console.error(
      `compile: wrote ${shown(command.output)} (${(size / 1024 / 1024).toFixed(1)} MiB)`,
    );
  }
}

if (import.meta.main) {
  try {
    const options = parseCompileArgs(Deno.args);
    if (options.help) {
      console.log(COMPILE_USAGE);
      Deno.exit(0);
    }
    await compileAll(options);
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    console.error(`compile: ${error.message} [${error.code}]`);
    Deno.exit(error.code === "usage" ? 2 : 1);
  }
}

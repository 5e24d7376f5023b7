/**
 * What `deno task compile` runs, as pure functions: the command line and environment of
 * each `deno compile`, the checks of its own arguments and of `DENORT_BIN`, and the reading
 * of a failed compile's output. `scripts/compile.ts` does the I/O around them.
 *
 * @module
 */
import { LAZY_MODULES } from "../packages/runtime/cli/_load.ts";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RUNTIME_FLAGS } from "./runtime_flags.ts";

/** The platforms `deno task compile` builds, in the order it builds them. */
export const COMPILE_TARGETS = ["x86_64-unknown-linux-gnu", "x86_64-pc-windows-msvc"] as const;

/** One of {@linkcode COMPILE_TARGETS}. */
export type CompileTarget = typeof COMPILE_TARGETS[number];

/** The command's entry module, relative to the repository root; its default command is `serve`. */
export const ENTRY = "packages/runtime/main.ts";

/**
 * What the executable embeds besides the module graph, relative to the repository root:
 * the built PWA (served through `findBuiltApp`), and the Workers' entry modules, which
 * `deno compile` does not find by itself (they are started from a `new URL(…)`).
 */
export const EMBEDDED_PATHS: readonly string[] = Object.freeze([
  "app/dist",
  "packages/runtime/tools/sandbox_worker.ts",
  "packages/tools/files/line_search_worker.ts",
  // The command modules main.ts loads on use (deno compile cannot see them ahead of time).
  ...LAZY_MODULES,
]);

/** Where the executables go by default, relative to the repository root. */
export const DEFAULT_OUT_DIR = "dist";

/** Stable codes of everything that can stop `deno task compile`. */
export type CompileErrorCode =
  | "usage"
  | "denort_bin_missing"
  | "denort_bin_wrong_platform"
  | "denort_unreachable"
  | "denort_not_found"
  | "app_build_failed"
  | "compile_failed";

/** A reason `deno task compile` stops, with one sentence for the person who ran it. */
export class CompileError extends Error {
  /** The stable code. */
  readonly code: CompileErrorCode;

  /**
   * @param code the stable code
   * @param message one sentence saying what happened and what to do
   * @param options the cause, when there is one
   */
  constructor(code: CompileErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "CompileError";
    this.code = code;
  }
}

/** The parsed arguments of `deno task compile`. */
export interface CompileOptions {
  /** The platforms to build, each once, in {@linkcode COMPILE_TARGETS} order. */
  readonly targets: readonly CompileTarget[];
  /** The folder the executables go to. */
  readonly outDir: string;
  /** `--help`: print the usage and build nothing. */
  readonly help: boolean;
}

/** The usage line of `deno task compile`. */
export const COMPILE_USAGE = `usage: deno task compile [--target ${
  COMPILE_TARGETS.join("|")
}]… [--out-dir DIR] (default: every target, into ${DEFAULT_OUT_DIR}/)`;

function isTarget(value: string): value is CompileTarget {
  return (COMPILE_TARGETS as readonly string[]).includes(value);
}

/**
 * Parses the task's arguments.
 *
 * @param args the arguments after the script
 * @returns the options
 * @throws {CompileError} `usage` for an unknown flag, a missing value or an unknown target
 */
export function parseCompileArgs(args: readonly string[]): CompileOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        target: { type: "string", multiple: true },
        "out-dir": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CompileError("usage", `${(error as Error).message}; ${COMPILE_USAGE}`, {
      cause: error,
    });
  }
  const wanted = values.target ?? [...COMPILE_TARGETS];
  const unknown = wanted.find((target) => !isTarget(target));
  if (unknown !== undefined) {
    throw new CompileError(
      "usage",
      `unknown target "${unknown}": deno task compile builds ${COMPILE_TARGETS.join(" and ")}`,
    );
  }
  const outDir = values["out-dir"] ?? DEFAULT_OUT_DIR;
  if (outDir.trim() === "") {
    throw new CompileError("usage", `--out-dir needs a folder; ${COMPILE_USAGE}`);
  }
  return {
    targets: COMPILE_TARGETS.filter((target) => wanted.includes(target)),
    outDir,
    help: values.help ?? false,
  };
}

/**
 * The executable's file name for a target: `daedalus-<target>`, `.exe` on Windows.
 *
 * @param target the platform
 * @returns the file name
 */
export function executableName(target: CompileTarget): string {
  return `daedalus-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** One `deno compile` to run: its arguments and its whole environment. */
export interface CompileCommand {
  /** The arguments after the deno executable. */
  readonly args: readonly string[];
  /** The child's whole environment (it is started with `clearEnv`). */
  readonly env: Readonly<Record<string, string>>;
  /** The executable it writes. */
  readonly output: string;
}

/**
 * The `deno compile` that builds one target: the shipped permission flags baked in
 * ({@linkcode RUNTIME_FLAGS}, the one definition), {@linkcode EMBEDDED_PATHS} included, and
 * only the npm packages the runtime's module graph reaches (`--node-modules-dir=none
 * --exclude-unused-npm`: the repository's node_modules also holds vite and playwright,
 * ~170 MB the executable does not need). The environment is the parent's, without colours
 * (the output is read), with `DENORT_BIN` passed through when it is set and dropped when
 * empty (deno would try to read a file named "").
 *
 * @param target the platform
 * @param outDir the folder the executable goes to
 * @param parentEnv the task's environment
 * @param flags the permission flags (default {@linkcode RUNTIME_FLAGS})
 * @returns the command
 */
export function compileCommand(
  target: CompileTarget,
  outDir: string,
  parentEnv: Readonly<Record<string, string>>,
  flags: readonly string[] = RUNTIME_FLAGS,
): CompileCommand {
  const output = join(outDir, executableName(target));
  const { DENORT_BIN: denortBin, ...env } = parentEnv;
  return {
    args: [
      "compile",
      "--target",
      target,
      "--output",
      output,
      "--node-modules-dir=none",
      "--exclude-unused-npm",
      ...EMBEDDED_PATHS.flatMap((path) => ["--include", path]),
      ...flags,
      ENTRY,
    ],
    env: { ...env, NO_COLOR: "1", ...(denortBin ? { DENORT_BIN: denortBin } : {}) },
    output,
  };
}

/** The executable format a target's denort must have. */
export type ExecutableFormat = "elf" | "pe";

/**
 * The format of an executable from its first bytes: ELF (`\x7fELF`) or PE (`MZ`).
 *
 * @param header the file's first bytes (4 are enough)
 * @returns the format, or `null` when it is neither
 */
export function executableFormat(header: Uint8Array): ExecutableFormat | null {
  if (header[0] === 0x7f && header[1] === 0x45 && header[2] === 0x4c && header[3] === 0x46) {
    return "elf";
  }
  if (header[0] === 0x4d && header[1] === 0x5a) return "pe";
  return null;
}

/**
 * Checks that `DENORT_BIN` can be the base of every target: deno uses the one file for
 * whatever `--target` says, so a Linux denort would silently become a broken `.exe`.
 *
 * @param path the value of `DENORT_BIN`
 * @param header the file's first bytes
 * @param targets the targets to build
 * @throws {CompileError} `denort_bin_wrong_platform` naming the first target it cannot serve
 */
export function checkDenortBin(
  path: string,
  header: Uint8Array,
  targets: readonly CompileTarget[],
): void {
  const format = executableFormat(header);
  for (const target of targets) {
    const needed: ExecutableFormat = target.includes("windows") ? "pe" : "elf";
    if (format === needed) continue;
    const found = format === null
      ? "not an executable"
      : format === "elf"
      ? "a Linux (ELF) executable"
      : "a Windows (PE) executable";
    throw new CompileError(
      "denort_bin_wrong_platform",
      `DENORT_BIN (${path}) is ${found}, so it cannot be the base of ${target}: ` +
        `point it at the denort of that platform, or build another one with --target`,
    );
  }
}

/**
 * Reads why a `deno compile` failed: its runtime (denort) could not be downloaded from
 * dl.deno.land (unreachable, or not published for this version), or anything else.
 *
 * @param target the platform it compiled for
 * @param output its combined output, without colours
 * @returns the error to report, with one sentence
 */
export function compileFailure(target: CompileTarget, output: string): CompileError {
  const zip = `denort-${target}.zip`;
  if (/error sending request for url \(https:\/\/dl\.deno\.land\/[^)\s]*denort-/.test(output)) {
    return new CompileError(
      "denort_unreachable",
      `deno compile could not download its runtime ${zip} from dl.deno.land, which this ` +
        `machine cannot reach: set DENORT_BIN to a denort executable for ${target} (the one ` +
        `inside that zip) and run deno task compile --target ${target} again`,
    );
  }
  if (/Download could not be found/.test(output)) {
    return new CompileError(
      "denort_not_found",
      `dl.deno.land has no ${zip} for this Deno version: set DENORT_BIN to a denort ` +
        `executable for ${target} and run deno task compile --target ${target} again`,
    );
  }
  return new CompileError(
    "compile_failed",
    `deno compile failed for ${target}; its output is above`,
  );
}

/**
 * `deno task check`'s package gate: `deno doc --lint` of every package's `mod.ts`, and
 * `deno publish --dry-run` inside every package (slow types are errors: no
 * `--allow-slow-types`), whose listed files must hold the package's front door and no test,
 * bench or fixture file (`publish.exclude` in each package's deno.json keeps them out).
 *
 * The dry runs pass `--no-check` because `deno task check` type-checks the whole workspace
 * just before; the slow-type analysis still runs, and they need no network (npm imports are
 * not fetched for a dry run). `--allow-dirty`: this checks the packages' content, not
 * whether the worktree is committed.
 *
 * Usage: `deno run --allow-run --allow-read --allow-env scripts/publish_check.ts [DIR…]`
 * (default: the five packages). Exit 0 when every check passes, 1 otherwise.
 *
 * @module
 */
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The published packages, as folders under the repository root. */
export const PACKAGE_DIRS: readonly string[] = Object.freeze([
  "packages/protocol",
  "packages/storage",
  "packages/tools",
  "packages/runtime",
  "packages/client",
]);

/** Files every package must ship: its config, its front door and its readme. */
export const REQUIRED_FILES: readonly string[] = Object.freeze([
  "deno.json",
  "mod.ts",
  "README.md",
]);

// Names that only tests and benches use (see CONVENTIONS.md): `x_test.ts`, `x_bench.ts`,
// `_test_x.ts` helpers, `_testing.ts`, `_fixtures.ts`/`_x_fixture.ts` and `testdata/`.
const UNPUBLISHABLE: readonly RegExp[] = [
  /_test\.[cm]?[jt]sx?$/,
  /_bench\.[cm]?[jt]sx?$/,
  /(^|\/)_test_[^/]*$/,
  /(^|\/)_testing\.[cm]?[jt]s$/,
  /(^|\/)_[^/]*fixtures?\.[cm]?[jt]s$/,
  /(^|\/)testdata\//,
];

// A dry run lists each file as `   file:///abs/path (12.3KB)`.
const LISTED_FILE = /^\s*(file:\/\/\/\S+) \([^)]*\)\s*$/;

/**
 * The files a `deno publish --dry-run` listing names, relative to the package folder,
 * with `/` separators, in listing order.
 *
 * @param output the dry run's combined output (without colours: `NO_COLOR=1`)
 * @param packageDir the absolute path of the package folder
 * @returns the listed files; a file outside the folder keeps its `../` path
 */
export function publishedFiles(output: string, packageDir: string): string[] {
  const files: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = LISTED_FILE.exec(line);
    if (match === null) continue;
    files.push(relative(packageDir, fileURLToPath(match[1])).replaceAll("\\", "/"));
  }
  return files;
}

/**
 * The listed files that are tests, benches or fixtures and must not be published.
 *
 * @param files package-relative paths with `/` separators
 * @returns the offending paths, in the given order
 */
export function unpublishableFiles(files: readonly string[]): string[] {
  return files.filter((file) => UNPUBLISHABLE.some((pattern) => pattern.test(file)));
}

/**
 * The files from {@linkcode REQUIRED_FILES} that a listing lacks.
 *
 * @param files package-relative paths with `/` separators
 * @returns the missing required files
 */
export function missingFiles(files: readonly string[]): string[] {
  return REQUIRED_FILES.filter((file) => !files.includes(file));
}

/** What one check reported: its name and every problem found (none: it passed). */
export interface CheckReport {
  /** What was checked, e.g. `publish packages/storage`. */
  readonly name: string;
  /** One line per problem; empty when the check passed. */
  readonly problems: readonly string[];
}

async function runDeno(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, output: decoder.decode(stdout) + decoder.decode(stderr) };
}

/**
 * Runs the publish dry run inside one package and checks what it would publish.
 *
 * @param packageDir the package folder (absolute, or relative to the working directory)
 * @returns the report: the dry run's failure output, unpublishable and missing files
 */
export async function checkPublish(packageDir: string): Promise<CheckReport> {
  const dir = resolve(packageDir);
  const name = `publish ${packageDir}`;
  const { code, output } = await runDeno(
    ["publish", "--dry-run", "--allow-dirty", "--no-check"],
    dir,
  );
  if (code !== 0) return { name, problems: [`deno publish --dry-run failed:\n${output.trim()}`] };
  const files = publishedFiles(output, dir);
  return {
    name,
    problems: [
      ...unpublishableFiles(files).map((file) =>
        `${file} is a test file; add it to publish.exclude`
      ),
      ...missingFiles(files).map((file) => `${file} is not in the package`),
    ],
  };
}

/**
 * Runs `deno doc --lint` over the packages' `mod.ts` files at once.
 *
 * @param packageDirs the package folders
 * @returns the report: the lint's output when it found problems
 */
export async function checkDocs(packageDirs: readonly string[]): Promise<CheckReport> {
  const entries = packageDirs.map((dir) => resolve(dir, "mod.ts"));
  const { code, output } = await runDeno(["doc", "--lint", ...entries], Deno.cwd());
  return { name: "doc --lint", problems: code === 0 ? [] : [output.trim()] };
}

if (import.meta.main) {
  const dirs = Deno.args.length > 0 ? Deno.args : PACKAGE_DIRS;
  const reports = await Promise.all([checkDocs(dirs), ...dirs.map(checkPublish)]);
  const failed = reports.filter((report) => report.problems.length > 0);
  for (const report of failed) {
    console.error(`${report.name}:\n  ${report.problems.join("\n  ")}`);
  }
  if (failed.length > 0) Deno.exit(1);
  console.error(`publish check: ${dirs.length} packages clean (doc lint, publish dry runs)`);
}

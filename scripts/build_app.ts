/**
 * `deno task build`: builds the PWA into `app/dist` (`--if-missing`: only when
 * there is no build yet, as `deno task start` does). The app has no sources yet (it
 * lands with its own issue), so this says so and succeeds.
 *
 * @module
 */
const appRoot = new URL("../app/", import.meta.url);

async function exists(url: URL): Promise<boolean> {
  try {
    await Deno.stat(url);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

if (Deno.args.includes("--if-missing") && await exists(new URL("dist/index.html", appRoot))) {
  Deno.exit(0);
}
if (!(await exists(new URL("vite.config.ts", appRoot)))) {
  console.error("app: no sources yet, nothing to build");
  Deno.exit(0);
}
// vite reports on stdout; `deno task start` runs this first, and its stdout must carry
// nothing but the runtime's one JSON ready line, so the report goes to stderr.
// `--out-dir DIR` builds elsewhere than app/dist (tests build into a temp folder, so a
// runtime serving app/dist meanwhile never sees a half-written build).
const outDirIndex = Deno.args.indexOf("--out-dir");
const outDir = outDirIndex >= 0 ? Deno.args[outDirIndex + 1] : undefined;
const build = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    "npm:vite",
    "build",
    ...(outDir ? ["--outDir", outDir, "--emptyOutDir"] : []),
  ],
  cwd: appRoot,
  stdout: "piped",
  stderr: "inherit",
}).spawn();
await build.stdout.pipeTo(Deno.stderr.writable, { preventClose: true });
const { code } = await build.status;
Deno.exit(code);

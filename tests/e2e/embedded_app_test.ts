/**
 * The shipped runtime serves the built PWA found by `findBuiltApp`: the lookup the
 * executable from `deno task compile` uses for its embedded `app/dist`, exercised here
 * under `deno run` with the shipped flags (the compiled executable cannot be built on
 * these machines: `deno compile` cannot download its runtime here).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTempHome, REPO_ROOT, startShippedRuntime } from "./_harness.ts";

const DIST = join(REPO_ROOT, "app", "dist");
const REBUILD_SETTLE_MS = 15_000; // a vite build of the app takes 4-6 s here

async function ensureBuiltApp(): Promise<void> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(REPO_ROOT, "scripts", "build_app.ts"), "--if-missing"],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, `building the app failed:\n${new TextDecoder().decode(stderr)}`);
}

Deno.test("the shipped runtime serves app/dist through the built-app lookup", async () => {
  await ensureBuiltApp();
  await using home = await makeTempHome();
  await using server = await startShippedRuntime(home);
  const manifestPath = join(DIST, "manifest.webmanifest");
  for (
    const [path, file, type] of [
      ["/", join(DIST, "index.html"), "text/html"],
      ["/threads/some-deep-link", join(DIST, "index.html"), "text/html"],
      ["/manifest.webmanifest", manifestPath, "application/manifest+json"],
    ]
  ) {
    await untilSettled(async () => {
      const response = await fetch(new URL(path, server.url));
      const body = await response.text();
      assert.equal(response.status, 200, `${path}: ${body.slice(0, 200)}`);
      assert.ok(response.headers.get("content-type")?.startsWith(type), `${path} content type`);
      assert.equal(body, await Deno.readTextFile(file), `${path} is not ${file}`);
    });
  }
});

/**
 * Retries a check for a few seconds: `deno task test --parallel` may run another test
 * process's `build_app.ts --if-missing` meanwhile, and vite empties `app/dist` while it
 * writes it (the browser tests' harness heals the same way).
 */
async function untilSettled(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + REBUILD_SETTLE_MS;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Hono } from "hono";
import { BUILT_APP_URL, findBuiltApp, staticFilesHandler } from "./_static_files.ts";

Deno.test("static files: hashed assets cache forever; the page, worker and manifest revalidate", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus-static-" });
  await Deno.mkdir(`${root}/assets`);
  await Deno.writeTextFile(`${root}/index.html`, "<!doctype html><title>D</title>");
  await Deno.writeTextFile(`${root}/sw.js`, "self.x = 1;");
  await Deno.writeTextFile(`${root}/manifest.webmanifest`, "{}");
  await Deno.writeTextFile(`${root}/assets/index-abc123.js`, "export {};");
  await Deno.writeTextFile(`${root}/workbox-1a2b3c4d.js`, "export {};");
  await Deno.writeFile(`${root}/icon-192.png`, new Uint8Array([0x89, 0x50]));
  const app = new Hono();
  app.get("*", staticFilesHandler(root));
  const cache = async (path: string) => {
    const response = await app.request(path);
    await response.body?.cancel();
    return [response.status, response.headers.get("cache-control")];
  };
  try {
    assert.deepEqual(await cache("/"), [200, "no-cache"]);
    assert.deepEqual(await cache("/threads/some-deep-link"), [200, "no-cache"]);
    assert.deepEqual(await cache("/sw.js"), [200, "no-cache"]);
    assert.deepEqual(await cache("/manifest.webmanifest"), [200, "no-cache"]);
    assert.deepEqual(await cache("/assets/index-abc123.js"), [
      200,
      "public, max-age=31536000, immutable",
    ]);
    assert.deepEqual(await cache("/workbox-1a2b3c4d.js"), [
      200,
      "public, max-age=31536000, immutable",
    ]);
    assert.deepEqual(await cache("/icon-192.png"), [200, "public, max-age=300"]);
    assert.equal((await cache("/missing.js"))[0], 404);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("static files: every file carries the CSP, no-framing, no-referrer and COOP headers", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus-static-" });
  await Deno.mkdir(`${root}/assets`);
  await Deno.writeTextFile(`${root}/index.html`, "<!doctype html><title>D</title>");
  await Deno.writeTextFile(`${root}/sw.js`, "self.x = 1;");
  await Deno.writeTextFile(`${root}/assets/index-abc123.js`, "export {};");
  const app = new Hono();
  app.get("*", staticFilesHandler(root));
  try {
    for (const path of ["/", "/threads/x", "/sw.js", "/assets/index-abc123.js"]) {
      const response = await app.request(`http://127.0.0.1:7420${path}`, {
        headers: { host: "127.0.0.1:7420" },
      });
      await response.body?.cancel();
      const csp = response.headers.get("content-security-policy") ?? "";
      const directives = new Map(
        csp.split(";").map((part) => part.trim().split(/\s+/)).map(([name, ...v]) => [name, v]),
      );
      assert.deepEqual(directives.get("default-src"), ["'self'"], `${path}: ${csp}`);
      assert.deepEqual(directives.get("script-src"), ["'self'"], path);
      assert.deepEqual(directives.get("connect-src"), ["'self'", "ws://127.0.0.1:7420"], path);
      assert.deepEqual(directives.get("object-src"), ["'none'"], path);
      assert.deepEqual(directives.get("base-uri"), ["'none'"], path);
      assert.deepEqual(directives.get("frame-ancestors"), ["'none'"], path);
      assert.ok(!csp.includes("unsafe-"), `${path}: nothing unsafe is allowed`);
      assert.equal(response.headers.get("x-frame-options"), "DENY", path);
      assert.equal(response.headers.get("referrer-policy"), "no-referrer", path);
      assert.equal(response.headers.get("cross-origin-opener-policy"), "same-origin", path);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff", path);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** The repository root: the nearest folder above this file whose deno.json is the workspace. */
async function repositoryRoot(): Promise<string> {
  for (
    let dir = dirname(fileURLToPath(import.meta.url));
    dir !== dirname(dir);
    dir = dirname(dir)
  ) {
    try {
      const config = JSON.parse(await Deno.readTextFile(join(dir, "deno.json")));
      if (Array.isArray(config.workspace)) return dir;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  throw new Error("no workspace deno.json above this test");
}

Deno.test("the built app is looked up at the repository's app/dist, relative to the module", async () => {
  assert.equal(
    fileURLToPath(BUILT_APP_URL),
    join(await repositoryRoot(), "app", "dist") + "/",
    "BUILT_APP_URL must name app/dist (what deno task compile embeds with --include app/dist)",
  );
});

Deno.test("findBuiltApp finds a folder with an index.html, and nothing else", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus-built app-" });
  try {
    const dist = join(root, "dist %20 x");
    const url = pathToFileURL(dist + "/");
    assert.equal(await findBuiltApp(url), undefined, "a missing folder is no build");
    await Deno.mkdir(join(dist, "assets"), { recursive: true });
    assert.equal(await findBuiltApp(url), undefined, "a folder without index.html is no build");
    await Deno.mkdir(join(dist, "index.html"));
    assert.equal(await findBuiltApp(url), undefined, "index.html must be a file");
    await Deno.remove(join(dist, "index.html"));
    await Deno.writeTextFile(join(dist, "index.html"), "<!doctype html><title>D</title>");
    assert.equal(await findBuiltApp(url), dist, "the URL's escapes are decoded into the path");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the app found by the lookup is what the handler serves", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus-built-app-" });
  try {
    const page = "<!doctype html><title>Daedalus</title>";
    await Deno.mkdir(join(root, "assets"));
    await Deno.writeTextFile(join(root, "index.html"), page);
    await Deno.writeTextFile(join(root, "assets", "index-abc123.js"), "export {};");
    const found = await findBuiltApp(pathToFileURL(root + "/"));
    assert.ok(found !== undefined, "the lookup missed a folder with index.html");
    const app = new Hono();
    app.get("*", staticFilesHandler(found));
    for (
      const [path, body] of [["/", page], ["/threads/deep", page], [
        "/assets/index-abc123.js",
        "export {};",
      ]]
    ) {
      const response = await app.request(path);
      assert.equal(response.status, 200, path);
      assert.equal(await response.text(), body, `${path} served the wrong file`);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

import assert from "node:assert/strict";
import { Hono } from "hono";
import { staticFilesHandler } from "./_static_files.ts";

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

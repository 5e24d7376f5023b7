/**
 * `deno task build` produces the installable app, and reports only on stderr:
 * `deno task start` runs it before the runtime, whose stdout must carry nothing but
 * the one JSON ready line.
 */
import assert from "node:assert/strict";

Deno.test("the app build writes the PWA and nothing on stdout", async () => {
  const script = new URL("../scripts/build_app.ts", import.meta.url).pathname;
  const out = await Deno.makeTempDir({ prefix: "daedalus-dist-" });
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, "--out-dir", out],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.equal(new TextDecoder().decode(output.stdout), "", "the build printed on stdout");
  const dist = new URL(`file://${out}/`);
  for (
    const file of [
      "index.html",
      "manifest.webmanifest",
      "sw.js",
      "icon.svg",
      "apple-touch-icon.png",
    ]
  ) {
    assert.ok((await Deno.stat(new URL(file, dist))).isFile, `${file} is missing`);
  }
  const manifest = JSON.parse(await Deno.readTextFile(new URL("manifest.webmanifest", dist)));
  assert.equal(manifest.display, "standalone");
  assert.equal(manifest.start_url, "/");
  // Every icon the manifest lists is there at the size it claims (a PNG's IHDR says).
  const icons = manifest.icons as { src: string; sizes: string; type: string; purpose?: string }[];
  assert.ok(icons.some((icon) => icon.purpose === "maskable"), "no maskable icon");
  for (const size of [48, 72, 96, 144, 192, 512]) {
    assert.ok(icons.some((icon) => icon.sizes === `${size}x${size}`), `no ${size} px icon`);
  }
  for (const icon of icons) {
    const bytes = await Deno.readFile(new URL(icon.src.slice(1), dist));
    if (icon.type !== "image/png") continue;
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const claimed = icon.sizes.split("x").map(Number);
    assert.deepEqual([view.getUint32(16), view.getUint32(20)], claimed, `${icon.src} size`);
  }
  // The runtime serves the page with script-src/style-src 'self': nothing inline may run.
  const html = await Deno.readTextFile(new URL("index.html", dist));
  assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>/i, "an inline <script> in index.html");
  assert.doesNotMatch(
    html,
    /<style|\sstyle=|\son[a-z]+=/i,
    "inline style or handler in index.html",
  );
  const sw = await Deno.readTextFile(new URL("sw.js", dist));
  const denylist = /denylist:\[([^\]]*)\]/.exec(sw)?.[1] ?? "";
  for (const route of ["attachments", "rpc", "ws", "auth"]) {
    assert.ok(denylist.includes(route), `the navigation fallback serves /${route}: ${denylist}`);
  }
  await Deno.remove(out, { recursive: true });
});

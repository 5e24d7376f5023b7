/**
 * Browser test of what a browser can leak: the login URL the runtime prints signs in once
 * and is dead afterwards (a second browser opening it gets the no-session screen, a direct
 * POST gets 401); after a normal flow the access token is in no storage the page can read
 * and in no file of the closed profile (History, Sessions, Top Sites, Favicons, LevelDB…);
 * a page on another loopback port cannot frame the app; the CSP and the other headers are
 * on `/`, a hashed asset and `/sw.js`, and the app runs under them with no violation.
 *
 * @module
 */
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  sendMessage,
  waitConnected,
  withBrowser,
} from "./_browser.ts";
import { loginCodeOf, printedLoginUrl } from "../e2e/_login.ts";

const ignore = !hasChromium;

/** Listens for `securitypolicyviolation` in every document before the app's scripts run. */
const VIOLATION_LISTENER = "window.__cspViolations = [];" +
  "document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(" +
  "e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));";

/** Everything the page itself can read of its storage, as one text. */
const READ_ALL_STORAGE = `(async () => {
  const parts = [];
  const dump = (storage) => {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      parts.push(key + '=' + storage.getItem(key));
    }
  };
  dump(localStorage);
  dump(sessionStorage);
  parts.push('cookie=' + document.cookie);
  parts.push('location=' + location.href);
  for (const info of await indexedDB.databases()) {
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open(info.name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    for (const name of db.objectStoreNames) {
      const rows = await new Promise((resolve, reject) => {
        const request = db.transaction(name).objectStore(name).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      parts.push('idb ' + info.name + '/' + name + '=' + JSON.stringify(rows));
    }
    db.close();
  }
  for (const cacheName of await caches.keys()) {
    const cache = await caches.open(cacheName);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      parts.push('cache ' + cacheName + ' ' + request.url + '=' + (await response.text()));
    }
  }
  return JSON.stringify({ count: parts.length, text: parts.join('\\n') });
})()`;

/** Every regular file under `dir`, recursively. */
async function* filesUnder(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* filesUnder(path);
    else if (entry.isFile) yield path;
  }
}

/** How often `needle` occurs in `haystack`. */
function occurrences(haystack: Uint8Array, needle: Uint8Array): number {
  let count = 0;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    count++;
  }
  return count;
}

/** The files of a closed profile that hold `secret` (UTF-8 or UTF-16LE), with counts. */
async function profileFilesHolding(profile: string, secret: string): Promise<string[]> {
  const utf8 = new TextEncoder().encode(secret);
  const utf16 = new Uint8Array(utf8.length * 2);
  utf8.forEach((byte, i) => utf16[i * 2] = byte);
  const found: string[] = [];
  for await (const path of filesUnder(profile)) {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue; // a lock or temp file went away
      throw error;
    }
    const count = occurrences(bytes, utf8) + occurrences(bytes, utf16);
    if (count > 0) found.push(`${path.slice(profile.length + 1)} (${count})`);
  }
  return found;
}

/** Waits until `check` holds, polling; fails with `what` after the deadline. */
async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + PAGE_WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test({
  name: "browser: the printed login URL signs in once; the token is in no storage or profile file",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page, context, token } = run;
      await context.addInitScript(VIOLATION_LISTENER);
      const printed = await printedLoginUrl(run.server);
      assert.ok(!printed.includes(token), "the printed URL does not carry the token");
      const code = loginCodeOf(printed);

      await page.goto(printed);
      await waitConnected(page);
      assert.ok(!page.url().includes(code), `the code is still in ${page.url()}`);
      // A normal flow under the CSP: a message, its streamed answer, Settings (lazy chunks).
      await sendMessage(page, "hello under the policy", "Answer to: hello under the policy");
      await page.click("nav.sidebar button.open-settings");
      await page.waitForSelector("dialog.settings[open]", { timeout: PAGE_WAIT_MS });
      await page.keyboard.press("Escape");
      await page.waitForFunction("navigator.serviceWorker.controller !== null", undefined, {
        timeout: PAGE_WAIT_MS,
      }).catch(() => {/* the worker may claim later; its caches are read either way */});
      const reported = await page.evaluate<string[]>("window.__cspViolations");
      assert.deepEqual(
        [...run.cspViolations, ...reported],
        [],
        "no CSP violation in a normal flow (the console's and the page's own reports)",
      );

      const storage = JSON.parse(await page.evaluate<string>(READ_ALL_STORAGE)) as {
        count: number;
        text: string;
      };
      assert.ok(storage.text.includes("daedalus."), "the app's own localStorage was read");
      assert.ok(!storage.text.includes(token), "the token is in no storage the page can read");
      assert.ok(!storage.text.includes(code), "nor is the login code");
      console.log(`storage entries read by the page: ${storage.count}`);

      // A second browser with the same URL: the code is spent.
      const other = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: [...CHROMIUM_ARGS],
      });
      try {
        const fresh = await (await other.newContext({ locale: "en-US" })).newPage();
        await fresh.goto(printed);
        await fresh.waitForSelector("main.no-session [role=alert]", { timeout: PAGE_WAIT_MS });
        assert.match(
          await fresh.textContent("main.no-session [role=alert]") ?? "",
          /already used or has expired/,
        );
        assert.match(await fresh.textContent("main.no-session") ?? "", /deno task login/);
        assert.ok(!fresh.url().includes(code), "the spent code is removed from its address bar");
      } finally {
        await other.close();
      }
      const direct = await fetch(`${run.server.url}auth/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code }),
      });
      assert.equal(direct.status, 401, "a direct POST with the spent code");
      assert.equal((await direct.json()).error.code, "login_code_invalid");

      // Chromium writes what it keeps to disk when the context closes.
      await context.close();
      const withToken = await profileFilesHolding(run.profileDir, token);
      const withCode = await profileFilesHolding(run.profileDir, code);
      console.log(`profile files holding the (spent) login code: ${withCode.join(", ")}`);
      console.log(`profile files holding the token: ${withToken.length}`);
      assert.ok(
        withCode.some((file) => /^Default\/(History|Sessions|Top Sites|Favicons)/.test(file)),
        `the scan reads where Chromium keeps visited URLs (the code was found in: ${withCode})`,
      );
      assert.deepEqual(withToken, [], "the access token is in no file of the profile");
    }),
});

Deno.test({
  name: "browser: another loopback port cannot frame the app; headers on /, an asset and /sw.js",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      await logIn(run);
      const appUrl = run.server.url;
      // Another port on 127.0.0.1 is the same site: the SameSite=Strict cookie goes along.
      await using framer = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
        new Response(
          `<!doctype html><title>framer</title><iframe id="f" src="${appUrl}"></iframe>`,
          { headers: { "content-type": "text/html" } },
        ));
      const framerUrl = `http://127.0.0.1:${framer.addr.port}/`;
      // Its own page: the refusal it reports is expected, unlike one on the app's page.
      const page = await run.context.newPage();
      const consoleLines: string[] = [];
      page.on("console", (message) =>
        consoleLines.push(message.text()));
      await page.goto(framerUrl);
      await waitFor(
        () =>
          consoleLines.some((line) => /frame-ancestors 'none'|X-Frame-Options/.test(line)),
        `Chromium reporting the refused frame (console: ${consoleLines.join(" | ")})`,
      );
      const frame = page.frames().find((f) => f !== page.mainFrame());
      assert.ok(frame, "the iframe exists");
      const rendered = await frame.evaluate<boolean>(
        "document.getElementById('app') !== null || document.querySelector('nav.sidebar') !== null",
      ).catch(() => false);
      assert.equal(rendered, false, `the framed document is not the app (${frame.url()})`);

      const index = await fetch(appUrl);
      const html = await index.text();
      const asset = /<script type="module" crossorigin src="(\/assets\/[\w-]+\.js)">/.exec(html);
      assert.ok(asset, `index.html loads a hashed script:\n${html}`);
      assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle="/i, "no inline code");
      for (const path of ["", asset[1]!.slice(1), "sw.js"]) {
        const response = await fetch(`${appUrl}${path}`);
        await response.body?.cancel();
        assert.equal(response.status, 200, path);
        const csp = response.headers.get("content-security-policy") ?? "";
        for (
          const directive of [
            "default-src 'self'",
            "script-src 'self'",
            `connect-src 'self' ws://127.0.0.1:${run.server.port}`,
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
          ]
        ) {
          assert.ok(csp.split("; ").includes(directive), `/${path}: ${directive} in ${csp}`);
        }
        assert.ok(!csp.includes("unsafe"), `/${path}: nothing unsafe in ${csp}`);
        assert.equal(response.headers.get("x-frame-options"), "DENY", path);
        assert.equal(response.headers.get("referrer-policy"), "no-referrer", path);
        assert.equal(response.headers.get("cross-origin-opener-policy"), "same-origin", path);
        assert.equal(response.headers.get("x-content-type-options"), "nosniff", path);
      }
    }),
});

/**
 * Browser tests of the installable app against a real `daedalus serve` (the scripted
 * fixture model) in Debian's Chromium: login, a streamed answer, the offline shell and
 * screenshots at 390×844 and 1440×900. Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  sendMessage,
  waitConnected,
  waitControlled,
  withBrowser,
} from "./_browser.ts";

const ignore = !hasChromium;

Deno.test({
  name: "browser: the login URL gives a session, leaves the address bar, and the app installs",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page, context, token } = run;
      await logIn(run);
      assert.ok(!page.url().includes(token), `the token is still in ${page.url()}`);
      assert.ok(!page.url().includes("code="), `the login code is still in ${page.url()}`);
      const cookies = await context.cookies(run.server.url);
      assert.ok(cookies.length > 0, "no session cookie was set");

      const manifestHref = await page.getAttribute("link[rel=manifest]", "href");
      assert.ok(manifestHref, "no <link rel=manifest>");

      await waitControlled(page);
      // A reload (if waitControlled needed one) keeps the session through the cookie.
      await waitConnected(page);
      const cdp = await context.newCDPSession(page);
      try {
        const manifest = await cdp.send("Page.getAppManifest") as {
          url: string;
          errors: unknown[];
        };
        assert.deepEqual(manifest.errors, [], `manifest errors at ${manifest.url}`);
        const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
        assert.deepEqual(installabilityErrors, []);
      } finally {
        await cdp.detach();
      }
    }),
});

Deno.test({
  name: "browser: a message in a new thread streams the scripted answer into the conversation",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await sendMessage(page, "hello", "Answer to: hello");
      const user = await page.textContent("article.message.role-user");
      assert.match(user ?? "", /hello/);
      // The thread shows in the sidebar and is the open one.
      await page.waitForSelector("nav.sidebar button.thread[aria-current=page]", {
        timeout: PAGE_WAIT_MS,
      });
      // The feed is no live region (scrolling would read rows out); the end of the answer
      // is announced on its own.
      assert.equal(await page.getAttribute("section.conversation", "aria-live"), null);
      await page.waitForFunction(
        "[...document.querySelectorAll('.visually-hidden[role=status]')]" +
          ".some((node) => node.textContent === 'The assistant finished answering.')",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: offline, a reload serves the shell from the precache and the banner says offline",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page, context } = run;
      await logIn(run);
      await waitControlled(page);
      await context.setOffline(true);
      // Chromium 150's offline emulation fails the requests but leaves `navigator.onLine`
      // true, which a browser without a network reports as false: the reloaded page is
      // told so as a browser really offline would tell it.
      await context.addInitScript(
        "Object.defineProperty(Navigator.prototype, 'onLine', { get: () => false })",
      );
      try {
        await page.reload();
        await page.waitForSelector("div.shell", { timeout: PAGE_WAIT_MS });
        await page.waitForSelector(".banner.banner-offline", { timeout: PAGE_WAIT_MS });
        const banner = await page.textContent(".banner.banner-offline span");
        assert.match(banner ?? "", /offline/i);
        // The shell came from the service worker, not the network.
        assert.ok(await page.evaluate<boolean>("navigator.serviceWorker.controller !== null"));
      } finally {
        await context.setOffline(false);
      }
    }),
});

Deno.test({
  name: "browser: screenshots at 390×844 and 1440×900",
  ignore,
  fn: async () => {
    const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
      await Deno.makeTempDir({ prefix: "daedalus_screenshots_" });
    await Deno.mkdir(dir, { recursive: true });
    await withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await sendMessage(page, "hello", "Answer to: hello");
      for (const [width, height] of [[390, 844], [1440, 900]] as const) {
        await page.setViewportSize({ width, height });
        const path = `${dir}/conversation-${width}x${height}.png`;
        await page.screenshot({ path });
        const { size } = await Deno.stat(path);
        assert.ok(size > 1000, `${path} is only ${size} bytes`);
        // Usable at this size: the composer and its Send button are on screen.
        const box = await page.locator("form.composer button[type=submit]").boundingBox();
        assert.ok(box !== null, "no Send button");
        assert.ok(box.x >= 0 && box.x + box.width <= width, `Send is off screen at ${width}`);
        assert.ok(box.y >= 0 && box.y + box.height <= height, `Send is off screen at ${height}`);
      }
    });
    console.log(`screenshots: ${dir}`);
  },
});

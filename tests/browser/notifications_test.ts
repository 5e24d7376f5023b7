/**
 * Browser test of notifications for background commands against a real `daedalus
 * serve` in Debian's Chromium: the first background command brings the offer; enabling
 * asks the browser for permission (granted here by the test, as a user would); when the
 * command finishes while the window is in the background, one notification names it and
 * its exit code. The page's Notification is wrapped only to record what the app shows.
 * Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import { hasChromium, logIn, PAGE_WAIT_MS, sendMessage, withBrowser } from "./_browser.ts";

/** Records notifications and makes the window look unfocused (a background window). */
const RECORD_NOTIFICATIONS = `
  globalThis.__notes = [];
  const Real = globalThis.Notification;
  if (Real) {
    globalThis.Notification = class extends Real {
      constructor(title, options) {
        super(title, options);
        globalThis.__notes.push({ title, body: options?.body, tag: options?.tag });
      }
    };
  }
  document.hasFocus = () => false;
`;

Deno.test({
  name: "browser: a background command that finishes in a background window notifies once",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page, context } = run;
      await context.addInitScript(RECORD_NOTIFICATIONS);
      await logIn(run);
      assert.equal(await page.evaluate<string>("Notification.permission"), "default");
      await sendMessage(page, "bg: sleep 2; echo done", "Started it.");
      await page.waitForSelector(".banner-notify", { timeout: PAGE_WAIT_MS });
      await context.grantPermissions(["notifications"], { origin: run.server.url });
      await page.click(".banner-notify button:text('Enable notifications')");
      await page.waitForSelector(".banner-notify", { state: "detached" });
      await page.waitForFunction("globalThis.__notes.length > 0", undefined, {
        timeout: PAGE_WAIT_MS,
      });
      const notes = await page.evaluate<{ title: string; body: string; tag: string }[]>(
        "globalThis.__notes",
      );
      assert.equal(notes.length, 1);
      assert.equal(notes[0]?.title, "Background command finished");
      assert.equal(notes[0]?.body, "sleep 2; echo done — exit code 0");
      assert.match(notes[0]?.tag ?? "", /^process_/);
      assert.deepEqual(run.pageErrors, []);
    }),
});

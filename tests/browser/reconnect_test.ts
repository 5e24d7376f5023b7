/**
 * The app across a runtime crash: SIGKILL while a Run streams, a restart on the same
 * home and port, and the app reconnects by itself (the session cookie survives the
 * restart), replays what it missed and merges it without duplicated or missing items.
 * Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  startMessage,
  waitConnected,
  waitForAnswer,
  waitForTextContaining,
  withBrowser,
} from "./_browser.ts";

/** The conversation as text, one entry per item article, in order. */
function conversationItems(page: Page): Promise<string[]> {
  return page.$$eval(
    "article.message",
    (articles) => articles.map((a) => `${a.className}: ${a.textContent ?? ""}`),
  );
}

Deno.test({
  name:
    "browser: after the runtime crashes and restarts the app reconnects and replays without duplicates",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await startMessage(page, "slow story");
      await waitForTextContaining(page, "article.message.role-assistant", "chunk2");

      await run.crashAndRestart();
      // The banner showed the lost connection; the app comes back without a reload or a
      // new login URL, and learns from the replay that recovery failed the Run.
      await waitConnected(page);
      const outcome = await page.waitForSelector(".run-outcome.status-failed", {
        timeout: PAGE_WAIT_MS,
      });
      assert.match(await outcome.textContent() ?? "", /runtime_interrupted/);

      // The same thread keeps working after the restart.
      await page.waitForSelector("form.composer button:text('Send')", { timeout: PAGE_WAIT_MS });
      await page.fill("form.composer textarea", "after the restart");
      await page.click("form.composer button[type=submit]");
      await waitForAnswer(page, "Answer to: after the restart");

      const live = await conversationItems(page);
      const partial = live.find((text) => text.includes("chunk0"));
      assert.ok(partial, `the partial answer is kept: ${live.join(" | ")}`);
      assert.equal(partial.split("chunk0 ").length - 1, 1, `a delta was duplicated: ${partial}`);
      assert.equal(live.filter((text) => text.includes("role-user")).length, 2, live.join(" | "));

      // A fresh load from history shows exactly what the live view merged.
      await page.reload();
      await waitConnected(page);
      await page.click("nav.sidebar button.thread >> nth=0");
      await waitForAnswer(page, "Answer to: after the restart");
      await page.waitForSelector(".run-outcome.status-failed", { timeout: PAGE_WAIT_MS });
      assert.deepEqual(await conversationItems(page), live);
      assert.deepEqual(run.pageErrors, []);
    }),
});

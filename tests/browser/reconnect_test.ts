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

Deno.test({
  name:
    "browser: a runtime away for longer than the backoff ladder — the page says Reconnecting, loads the thread opened meanwhile and clears by itself",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await startMessage(page, "first thread");
      await waitForAnswer(page, "Answer to: first thread");
      await startMessage(page, "slow story");
      await waitForTextContaining(page, "article.message.role-assistant", "chunk2");

      await run.crashAndRestart(async () => {
        // Away for 4 s: seed 000's ladder (1.55 s in all) is long spent. The page keeps
        // trying and never offers Retry; the thread opened meanwhile waits to load.
        await page.waitForSelector(".banner-reconnecting", { timeout: PAGE_WAIT_MS });
        await page.click("nav.sidebar button.thread:not(.current)"); // the first thread
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        const banner = await page.textContent(".banner");
        assert.equal(banner?.trim(), "Reconnecting…", "still trying, in plain words");
        assert.equal(await page.$(".banner button"), null, "no Retry or Reload while it tries");
        assert.equal(await page.$("[role=alert]"), null, "no error line for the lost connection");
      });
      // Within 6 s of the runtime coming back (the curve waits at most 5 s between tries).
      await page.waitForFunction("document.querySelector('.banner') === null", undefined, {
        timeout: 6_000,
      });
      await waitForAnswer(page, "Answer to: first thread");
      assert.equal(await page.$("[role=alert]"), null, "no error left behind");

      // The interrupted thread shows its outcome, and Resume finishes the answer.
      await page.click("nav.sidebar button.thread:not(.current)"); // back to the slow one
      const resume = await page.waitForSelector(".run-outcome.status-failed button.resume-run", {
        timeout: PAGE_WAIT_MS,
      });
      await resume.click();
      await waitForAnswer(page, "chunk19");
      assert.deepEqual(run.pageErrors, []);
    }),
});

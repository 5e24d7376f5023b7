/**
 * Browser test of the context meter and "Compact now" against a real `daedalus serve` (the
 * scripted fixture) in Debian's Chromium: after a turn the meter shows the last step's share
 * of the window with the tokens on hover; Compact now is disabled while a Run streams,
 * compacts once it settled, shows what it did (and that a second click found nothing new), and the next turn's model input has the
 * summary instead of the earlier turns (the fixture reports what it saw). Skipped when
 * Chromium is not installed. Screenshots go to BROWSER_SCREENSHOTS_DIR when set.
 */
import assert from "node:assert/strict";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  sendMessage,
  waitForAnswer,
  waitForTextContaining,
  withBrowser,
} from "./_browser.ts";

Deno.test({
  name: "browser: the context meter shows the last step's use and Compact now compacts",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await sendMessage(page, "hello there", "Answer to: hello there");
      await waitForTextContaining(page, "form.composer .context-use", "% of context");
      const title = await page.getAttribute("form.composer .context-use", "title");
      assert.match(String(title), /of [\d,]+ tokens in the last step/, `hover text: ${title}`);

      await page.fill("form.composer textarea", "slow answer please");
      await page.click("form.composer button[type=submit]");
      await page.waitForSelector("form.composer button.compact-now:disabled", {
        timeout: PAGE_WAIT_MS,
      });
      await waitForAnswer(page, "chunk19");
      await page.waitForSelector("form.composer button.compact-now:not(:disabled)", {
        timeout: PAGE_WAIT_MS,
      });

      await page.click("form.composer button.compact-now");
      await waitForTextContaining(page, "form.composer .compact-outcome", "Compacted: about");
      const shots = Deno.env.get("BROWSER_SCREENSHOTS_DIR");
      if (shots) await page.screenshot({ path: `${shots}/compaction-done.png` });
      await page.click("form.composer button.compact-now");
      await waitForTextContaining(page, "form.composer .compact-outcome", "Nothing to compact yet");

      await page.fill("form.composer textarea", "context?");
      await page.click("form.composer button[type=submit]");
      await waitForAnswer(page, "Seen: ; summary: yes");
    }),
});

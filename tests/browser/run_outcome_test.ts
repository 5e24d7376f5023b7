/**
 * Browser test of a failed Run's outcome against a real `daedalus serve` (the scripted
 * fixture model) in Debian's Chromium: the localized reason, the provider's own words as
 * the runtime stored them, and the raw code. Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  startMessage,
  waitConnected,
  withBrowser,
} from "./_browser.ts";

Deno.test({
  name: "browser: a failed Run shows the provider's message next to its localized reason",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await startMessage(page, "fail: authentication Incorrect API key provided: sk-wro***.");
      const outcome = await page.waitForSelector(".run-outcome.status-failed", {
        timeout: PAGE_WAIT_MS,
      });
      const text = await outcome.textContent() ?? "";
      assert.match(text, /rejected the credentials/, text);
      assert.match(
        await page.textContent(".run-outcome .error-message") ?? "",
        /Incorrect API key provided: sk-wro\*\*\*\./,
      );
      assert.match(text, /provider_authentication/);

      // After a reload the message comes from the stored Run (turn.list), not the live event.
      await page.reload();
      await waitConnected(page);
      await page.click("nav.sidebar button.thread >> nth=0");
      await page.waitForSelector(".run-outcome .error-message", { timeout: PAGE_WAIT_MS });
      assert.match(
        await page.textContent(".run-outcome .error-message") ?? "",
        /Incorrect API key provided/,
      );
      assert.deepEqual(run.pageErrors, []);
    }),
});

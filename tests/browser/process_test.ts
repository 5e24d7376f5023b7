/**
 * Browser test of a background process's card against a real `daedalus serve`: its
 * output read on demand and Stop. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import {
  hasChromium,
  logIn,
  openToolRow,
  PAGE_WAIT_MS,
  sendMessage,
  withBrowser,
} from "./_browser.ts";

Deno.test({
  name: "browser: a background process's card shows its output and stops it",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await sendMessage(page, "bg: echo marker-42; sleep 60", "Started it.");
      await openToolRow(page, "process_start");
      const controls = "section.tool-card .process-controls";
      assert.equal(await page.textContent("section.tool-card .badge"), "background");
      await page.waitForSelector(`${controls} .state-running`, { timeout: PAGE_WAIT_MS });
      assert.equal(
        await page.textContent(`${controls} .process-state`),
        "running in the background",
      );
      // The output arrives a moment after the start; ask until it shows.
      await page.click(`${controls} button:text('Show output')`);
      for (let attempt = 0;; attempt++) {
        const log = await page.textContent(`${controls} pre.process-log`);
        if (log?.includes("marker-42")) break;
        assert.ok(attempt < 50, `no output: ${log}`);
        await page.click(`${controls} button:text('More')`);
        await page.waitForTimeout(100);
      }
      await page.click(`${controls} button:text('Stop')`);
      await page.waitForSelector(`${controls} .state-terminated`, { timeout: PAGE_WAIT_MS });
      assert.match(
        await page.textContent(`${controls} .process-state`) ?? "",
        /^background command ended/,
      );
      assert.equal(await page.$(`${controls} button:text('Stop')`), null, "Stop is gone");
      // "More" after the stop keeps the output (no duplicated text).
      await page.click(`${controls} button:text('More')`);
      await page.waitForTimeout(200);
      const log = await page.textContent(`${controls} pre.process-log`) ?? "";
      assert.equal(log.split("marker-42").length - 1, 1, log);
      assert.deepEqual(run.pageErrors, []);
    }),
});

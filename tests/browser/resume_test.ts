/**
 * Browser test of Resume against a real `daedalus serve` (the scripted fixture model) in
 * Debian's Chromium: a Run stopped during its second tool call offers Resume; the resumed Run
 * continues in the same turn without running the first call again and answers.
 */
import assert from "node:assert/strict";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  startMessage,
  waitForAnswer,
  withBrowser,
} from "./_browser.ts";

const counter = await Deno.makeTempFile({ prefix: "daedalus_count_" });
const runs = async () => (await Deno.readTextFile(counter)).split("\n").filter(Boolean).length;

Deno.test({
  name: "browser: a stopped Run offers Resume, which continues it without re-running its tools",
  ignore: !hasChromium,
  fn: async () => {
    try {
      await withBrowser(
        async (run) => {
          const { page } = run;
          await logIn(run);
          await startMessage(page, 'steps: count {} | count {"wait":true}');
          // The second call waits until cancelled: stop the Run while it runs.
          const deadline = Date.now() + PAGE_WAIT_MS;
          while (await runs() < 2 && Date.now() < deadline) await page.waitForTimeout(50);
          assert.equal(await runs(), 2, "both calls started");
          await page.click("form.composer button:text('Stop')");
          const resume = await page.waitForSelector(
            ".run-outcome.status-cancelled button.resume-run",
            {
              timeout: PAGE_WAIT_MS,
            },
          );
          await resume.click();
          await waitForAnswer(page, "Done after 2 steps");
          assert.equal(await runs(), 2, "neither call ran again");
          assert.equal(
            await page.$$eval("article.message.role-user", (nodes) => nodes.length),
            1,
            "the same turn: no second user message",
          );
          assert.equal(await page.$(".run-outcome button.resume-run"), null, "offered no more");
          assert.deepEqual(run.pageErrors, []);
        },
        undefined,
        { env: { FIXTURE_COUNTER_FILE: counter } },
      );
    } finally {
      await Deno.remove(counter).catch(() => {});
    }
  },
});

/**
 * Browser test of the compact tool activity against a real `daedalus serve` (the scripted
 * fixture model) in Debian's Chromium: a step with four tool calls folds under one header
 * "Ran 4 tools" once done, which opens (click or Enter) to four rows, each of which opens
 * to its arguments and output; under the answer, a quiet line with the Run's tokens, its
 * context use, its model and its duration. Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  startMessage,
  waitForAnswer,
  waitForCount,
  withBrowser,
} from "./_browser.ts";

const wait = { timeout: PAGE_WAIT_MS };

Deno.test({
  name: "browser: a step's four tool calls fold under 'Ran 4 tools'; the usage line shows tokens",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      const calls = ["a", "b", "c", "d"].map((text) => `echo ${JSON.stringify({ text })}`);
      await startMessage(page, `calls: ${calls.join(" | ")}`);
      await waitForAnswer(page, "Did 4 calls");

      // One feed row for the step, folded now that it is done.
      const header = ".tool-group > .tool-group-line";
      await page.waitForSelector(`${header}[aria-expanded=false]`, wait);
      assert.equal(await page.$$eval(".feed-row .tool-group", (groups) => groups.length), 1);
      assert.match(await page.textContent(header) ?? "", /^Ran 4 tools/);
      assert.equal(await page.$(".tool-group .tool-row"), null, "folded: no rows");

      const answerTop = () =>
        page.evaluate<number>(
          "[...document.querySelectorAll('article.message.role-assistant')].at(-1)" +
            ".getBoundingClientRect().top",
        );
      const foldedTop = await answerTop();
      await page.click(header);
      await waitForCount(page, ".tool-group-rows > .tool-row", 4);
      // The step is one feed row: opened, it is measured again and what follows moves down
      // below it (the windowed feed does not lay the answer over the rows).
      await page.waitForFunction(
        `(() => {
          const group = document.querySelector('.tool-group').getBoundingClientRect();
          const answer = [...document.querySelectorAll('article.message.role-assistant')].at(-1);
          return answer.getBoundingClientRect().top >= group.bottom - 1;
        })()`,
        undefined,
        wait,
      );
      assert.ok((await answerTop()) > foldedTop + 100, "the answer moved below the open step");
      assert.equal(await page.getAttribute(header, "aria-expanded"), "true");
      const rows = await page.$$eval(
        ".tool-group-rows > .tool-row .tool-row-line",
        (lines) =>
          lines.map((line) => [line.textContent ?? "", line.getAttribute("aria-expanded")]),
      );
      assert.equal(rows.length, 4);
      for (const [text, expanded] of rows) {
        assert.match(text ?? "", /^Usedecho/, `a row says what was used: ${text}`);
        assert.equal(expanded, "false");
      }

      // A row opens from the keyboard to its arguments and output.
      await page.focus(".tool-group-rows > .tool-row:nth-child(2) .tool-row-line");
      await page.keyboard.press("Enter");
      const details = ".tool-group-rows > .tool-row:nth-child(2) .tool-row-details .tool-card";
      await page.waitForSelector(details, wait);
      const shown = await page.textContent(details) ?? "";
      assert.match(shown, /Arguments.*"text": "b"/s, `the call's arguments: ${shown}`);
      assert.match(shown, /Output.*echo: b/s, `the call's output: ${shown}`);

      // Enter on the header folds the step again.
      await page.focus(header);
      await page.keyboard.press("Enter");
      await page.waitForSelector(`${header}[aria-expanded=false]`, wait);
      await page.waitForFunction(
        `Math.abs([...document.querySelectorAll('article.message.role-assistant')].at(-1)` +
          `.getBoundingClientRect().top - ${foldedTop}) < 2`,
        undefined,
        wait,
      );

      // The usage line under the answer: tokens (two model calls of 10 in, 5 out), the
      // context against the window, the model, the time.
      const usage = await page.waitForSelector(".run-usage", wait);
      const tokens = await usage.$eval(".run-usage-tokens", (el) => [el.textContent, el.title]);
      assert.deepEqual(tokens, [
        "20 in · 10 out",
        "20 input tokens, 0 of them cached; 10 output tokens; 2 model calls",
      ], "tokens in and out, the full figures on hover");
      assert.match(
        await usage.$eval(".run-usage-context", (el) => el.textContent) ?? "",
        /^\d+(\.\d)?k? \/ \d+(\.\d)?k context$/,
      );
      assert.equal(await usage.$eval(".run-usage-model", (el) => el.textContent), "scripted-model");
      // the time, when the Run took long enough to say (from 0.1 s on)
      const took = await usage.$(".run-usage-duration");
      if (took) assert.match(await took.textContent() ?? "", /^\d+(\.\d)? s$|min|h /);
      // It sits under the answer.
      const below = await page.evaluate(`(() => {
        const answers = [...document.querySelectorAll('article.message.role-assistant')];
        const answer = answers.at(-1).getBoundingClientRect();
        return document.querySelector('.run-usage').getBoundingClientRect().top >= answer.bottom - 1;
      })()`);
      assert.equal(below, true, "the usage line is under the answer");
      const context = await usage.$eval(".run-usage-context", (el) => el.textContent);

      // After a reload the Run's record brings the same figures (turn.list's usage).
      await page.reload();
      const reloaded = await page.waitForSelector(".run-usage .run-usage-tokens", wait);
      assert.deepEqual(
        await reloaded.evaluate((el) => [el.textContent, el.getAttribute("title")]),
        tokens,
        "the reloaded Run shows the same tokens",
      );
      assert.equal(
        await page.$eval(".run-usage .run-usage-context", (el) => el.textContent),
        context,
        "and the same context use",
      );
      assert.deepEqual(run.pageErrors, []);
    }),
});

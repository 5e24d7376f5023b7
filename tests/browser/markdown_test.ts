/**
 * Browser test of assistant Markdown against a real `daedalus serve` in Debian's
 * Chromium: a fenced code block in an answer renders as code (never as HTML) with a Copy
 * button that puts exactly its text on the clipboard, and the answer's own Copy button
 * copies its Markdown source. Skipped when Chromium is not
 * installed.
 */
import assert from "node:assert/strict";
import {
  hasChromium,
  logIn,
  openNewThread,
  PAGE_WAIT_MS,
  waitForText,
  withBrowser,
} from "./_browser.ts";

Deno.test({
  name: "browser: a code block in an answer has a Copy button that copies its text",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page, context } = run;
      await context.grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: run.server.url,
      });
      await logIn(run);
      await openNewThread(page);
      // The scripted model answers "Answer to: <message>": the fence starts the 2nd line.
      const code = 'const tag = "<b>x</b>";\nconsole.log(tag);';
      await page.fill("form.composer textarea", `see\n\`\`\`ts\n${code}\n\`\`\``);
      await page.click("form.composer button[type=submit]");
      await page.waitForSelector("article.message.role-assistant .code-block pre code", {
        timeout: PAGE_WAIT_MS,
      });
      assert.equal(
        await page.textContent("article.message.role-assistant .code-block code"),
        code,
      );
      assert.equal(await page.$("article.message.role-assistant b"), null, "no HTML");
      await page.click("article.message.role-assistant .copy-code");
      await waitForText(page, "article.message.role-assistant .copy-code", "Copied");
      assert.equal(await page.evaluate<string>("navigator.clipboard.readText()"), code);
      // The whole answer copies as its Markdown source.
      await page.click("article.message.role-assistant .copy-answer");
      await waitForText(page, "article.message.role-assistant .copy-answer", "Copied");
      assert.equal(
        await page.evaluate<string>("navigator.clipboard.readText()"),
        `Answer to: see\n\`\`\`ts\n${code}\n\`\`\``,
      );
      assert.deepEqual(run.pageErrors, []);
    }),
});

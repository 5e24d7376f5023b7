/**
 * Browser test of branches against a real `daedalus serve` in Debian's Chromium: Edit and
 * resend on a user message (the editor says files are not rewound) continues on a fork,
 * the switcher moves between 1/2 and 2/2 with the feed showing each version's messages,
 * and Regenerate on an answer adds a third version. Skipped when Chromium is not
 * installed. Screenshots go to BROWSER_SCREENSHOTS_DIR when set.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  sendMessage,
  waitForAnswer,
  waitForText,
  withBrowser,
} from "./_browser.ts";

/** The user messages the feed shows, in order. */
function userMessages(page: Page): Promise<string[]> {
  return page.locator("article.message.role-user p.text").allTextContents();
}

/** Waits until the feed shows exactly these user messages. */
async function waitForUserMessages(page: Page, expected: string[]): Promise<void> {
  await page.waitForFunction(
    `JSON.stringify([...document.querySelectorAll('article.message.role-user p.text')]` +
      `.map((p) => p.textContent)) === ${JSON.stringify(JSON.stringify(expected))}`,
    undefined,
    { timeout: PAGE_WAIT_MS },
  ).catch(async (error) => {
    throw new Error(
      `expected ${JSON.stringify(expected)}, the feed shows ` +
        `${JSON.stringify(await userMessages(page))}`,
      { cause: error },
    );
  });
}

Deno.test({
  name: "browser: Edit and resend, the branch switcher and Regenerate",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const shots = Deno.env.get("BROWSER_SCREENSHOTS_DIR");
      await logIn(run);
      await sendMessage(page, "alpha", "Answer to: alpha");
      await page.fill("form.composer textarea", "beta");
      await page.click("form.composer button[type=submit]");
      await waitForAnswer(page, "Answer to: beta");
      await waitForUserMessages(page, ["alpha", "beta"]);

      // Edit and resend the second message.
      const beta = page.locator("article.message.role-user", { hasText: "beta" });
      await beta.locator("button.message-action", { hasText: "Edit" }).click();
      const editor = page.locator("form.message-editor");
      await editor.waitFor({ timeout: PAGE_WAIT_MS });
      assert.equal(
        await editor.locator(".message-editor-note").textContent(),
        "Files are not rewound; use Undo file changes",
      );
      await editor.locator("textarea").fill("gamma");
      if (shots) await page.screenshot({ path: `${shots}/branch-edit.png` });
      await editor.locator("button[type=submit]").click();
      await waitForAnswer(page, "Answer to: gamma");
      await waitForUserMessages(page, ["alpha", "gamma"]);
      await waitForText(page, ".branch-switcher .branch-position", "2/2");
      assert.equal(
        await page.locator("article.message.role-assistant", { hasText: "Answer to: beta" })
          .count(),
        0,
        "the first version's answer is not on the fork",
      );
      if (shots) await page.screenshot({ path: `${shots}/branch-switcher.png` });

      // The switcher moves back to the first version and forward again.
      await page.click(".branch-switcher button[aria-label='Previous version']");
      await waitForUserMessages(page, ["alpha", "beta"]);
      await waitForText(page, ".branch-switcher .branch-position", "1/2");
      await waitForAnswer(page, "Answer to: beta");
      await page.click(".branch-switcher button[aria-label='Next version']");
      await waitForUserMessages(page, ["alpha", "gamma"]);
      await waitForText(page, ".branch-switcher .branch-position", "2/2");

      // Each version has its own address: reload stays on it, Back returns to the one before.
      const branchAddress = /^#\/t\/thread_[0-9a-f]{32}\/b\/branch_[0-9a-f]{32}$/;
      const onFork = await page.evaluate<string>("location.hash");
      assert.match(onFork, branchAddress, "the fork's address names its branch");
      await page.reload();
      await waitForUserMessages(page, ["alpha", "gamma"]);
      await waitForText(page, ".branch-switcher .branch-position", "2/2");
      await page.goBack();
      await waitForUserMessages(page, ["alpha", "beta"]);
      await waitForText(page, ".branch-switcher .branch-position", "1/2");
      const onFirst = await page.evaluate<string>("location.hash");
      assert.match(onFirst, branchAddress, "with two versions the first is named too");
      assert.notEqual(onFirst, onFork);
      await page.goForward();
      await waitForUserMessages(page, ["alpha", "gamma"]);
      assert.equal(await page.evaluate<string>("location.hash"), onFork);
      // A branch that does not exist: the thread opens as it is, and says so.
      await page.evaluate(
        `location.hash = ${
          JSON.stringify(onFork.replace(/branch_[0-9a-f]{32}/, "branch_" + "0".repeat(32)))
        }`,
      );
      await page.waitForSelector("[role=alert]:has-text('This branch no longer exists.')", {
        timeout: PAGE_WAIT_MS,
      });
      await waitForUserMessages(page, ["alpha", "gamma"]);

      // Regenerate the answer to gamma: a third version of the second turn.
      const answer = page.locator("article.message.role-assistant", {
        hasText: "Answer to: gamma",
      });
      await answer.locator("button.message-action", { hasText: "Regenerate" }).click();
      await waitForText(page, ".branch-switcher .branch-position", "3/3");
      await waitForUserMessages(page, ["alpha", "gamma"]);
      await waitForAnswer(page, "Answer to: gamma");
      if (shots) await page.screenshot({ path: `${shots}/branch-regenerated.png` });
    }),
});

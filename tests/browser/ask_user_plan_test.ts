/**
 * Browser test of the agent's questions and plan against a real `daedalus serve` (shipped
 * flags, the scripted model, headless Chromium). An `ask_user` call shows a question card
 * in the feed and the run's progress says it waits for an answer: a choice is a button that
 * answers, a question without choices has a text box where Enter sends; the model reads the
 * answer (several choices are checkboxes and Send). A `plan` call pins the plan above the composer with its progress ("1 of 3 done"),
 * and it is there again after a reload. Screenshots (light and dark) are saved. Skipped
 * without Chromium.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  startMessage,
  waitForAnswer,
  withBrowser,
} from "./_browser.ts";

const wait = { timeout: PAGE_WAIT_MS };
const PENDING = ".feed-row .question-card.pending";

async function screenshots(page: Page, dir: string, selector: string, name: string) {
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
    await page.locator(selector).screenshot({ path: `${dir}/${name}-${theme}.png` });
    await page.screenshot({ path: `${dir}/${name}-page-${theme}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

Deno.test({
  name: "browser: an ask_user card is answered by a choice or by typing; the plan stays pinned",
  ignore: !hasChromium,
  fn: async () => {
    const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
      await Deno.makeTempDir({ prefix: "daedalus_screenshots_" });
    await Deno.mkdir(dir, { recursive: true });
    await withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);

      // Choices are buttons: one click answers.
      const choices = { question: "Which port should the server use?", choices: ["8080", "9090"] };
      await startMessage(page, `call: ask_user ${JSON.stringify(choices)}`);
      await page.waitForSelector(PENDING, wait);
      await page.waitForFunction(
        `document.querySelector('.run-progress .progress-waiting')?.textContent === ` +
          `"Waiting for your answer"`,
        undefined,
        wait,
      );
      assert.equal(
        await page.textContent('.tool-row[data-tool="ask_user"] .tool-state'),
        "waiting for your answer",
        "the call's row says what it waits for",
      );
      const card = await page.textContent(PENDING) ?? "";
      assert.match(card, /The agent asks/);
      assert.match(card, /Which port should the server use\?/, "the card shows the question");
      assert.match(card, /Decline to answer/);
      const buttons = await page.locator(`${PENDING} .question-choice`).allTextContents();
      assert.deepEqual(buttons, ["8080", "9090"], "one button per choice");
      await screenshots(page, dir, PENDING, "question-choices");
      await page.click(`${PENDING} .question-choice:text-is("9090")`);
      await waitForAnswer(page, "Result: The user answered: 9090");
      await page.waitForSelector(".question-card.status-allowed", wait);
      const answered = await page.textContent(".question-card.status-allowed") ?? "";
      assert.match(answered, /Answered: 9090/, answered);
      assert.equal(await page.locator(PENDING).count(), 0, "no card waits any more");

      // No choices: a text box, Enter sends.
      await startMessage(
        page,
        `call: ask_user ${JSON.stringify({ question: "What is the name?" })}`,
      );
      await page.waitForSelector(`${PENDING} textarea`, wait);
      await screenshots(page, dir, PENDING, "question-text");
      await page.fill(`${PENDING} textarea`, "Ada");
      await page.press(`${PENDING} textarea`, "Enter");
      await waitForAnswer(page, "Result: The user answered: Ada");

      // Several choices: checkboxes, then Send; the answer lists them in the question's order.
      const several = {
        question: "Which platforms?",
        choices: ["linux", "mac", "windows"],
        multiple: true,
      };
      await startMessage(page, `call: ask_user ${JSON.stringify(several)}`);
      await page.waitForSelector(`${PENDING} .question-check`, wait);
      await page.check(`${PENDING} .question-check:has-text("windows") input`);
      await page.check(`${PENDING} .question-check:has-text("linux") input`);
      await screenshots(page, dir, PENDING, "question-several");
      await page.click(`${PENDING} button.approval-allow`);
      await waitForAnswer(page, "Result: The user picked: linux; windows");

      // The plan, pinned above the composer with its progress, also after a reload.
      const plan = {
        items: [
          { text: "Read the config loader", status: "done" },
          { text: "Add the --port flag", status: "in_progress" },
          { text: "Write the tests", status: "pending" },
        ],
      };
      await startMessage(page, `call: plan ${JSON.stringify(plan)}`);
      await waitForAnswer(page, "Plan updated (1 of 3 done)");
      const pin = "form.composer .plan-pin";
      await page.waitForSelector(pin, wait);
      const pinned = async () => {
        await page.waitForSelector(`${pin} .plan-item`, wait);
        const text = await page.textContent(pin) ?? "";
        assert.match(text, /Plan/);
        assert.match(text, /1 of 3 done/, text);
        const items = await page.locator(`${pin} .plan-item .plan-text`).allTextContents();
        assert.deepEqual(items, plan.items.map((item) => item.text));
        const statuses = await page.locator(`${pin} .plan-item`).evaluateAll((nodes) =>
          nodes.map((node) => node.className)
        );
        assert.deepEqual(statuses, [
          "plan-item status-done",
          "plan-item status-in_progress",
          "plan-item status-pending",
        ]);
      };
      await pinned();
      await screenshots(page, dir, "main", "plan-pinned");
      await page.reload();
      await page.waitForSelector(pin, wait);
      await pinned();
    });
  },
});

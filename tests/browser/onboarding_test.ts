/**
 * Browser tests of the first-run wizard against a real `daedalus serve` with no
 * provider configured: the three steps through the UI (name, language and theme applied
 * at once, a custom provider at the fixture's scripted model with Advanced limits, the
 * summary), then a message answered with that model; and Skip setup. Both are never
 * shown again after a reload. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  sendMessage,
  waitConnected,
  waitForText,
  withBrowser,
} from "./_browser.ts";

const WIZARD = "dialog.onboarding-dialog[open]";
const STEP_TITLE = `${WIZARD} #onboarding-step-title`;

async function waitStepTitle(page: Page, title: string): Promise<void> {
  await waitForText(page, STEP_TITLE, title);
}

const DARK_BG = "rgb(15, 23, 42)";
const LIGHT_BG = "rgb(255, 255, 255)";

const bodyBackground = (page: Page) =>
  page.evaluate<string>("getComputedStyle(document.body).backgroundColor");

async function waitBackground(page: Page, color: string): Promise<void> {
  await page.waitForFunction(
    `getComputedStyle(document.body).backgroundColor === ${JSON.stringify(color)}`,
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
}

const storedRecord = (page: Page) =>
  page.evaluate<string | null>("localStorage.getItem('daedalus.onboarding')");

/**
 * After a reload: connected, and a round trip (a new thread) done after the wizard's own
 * check would have opened it.
 */
async function reloadConnected(page: Page): Promise<void> {
  await page.reload();
  await waitConnected(page);
  await page.click("nav.sidebar button.new-thread");
  await page.waitForSelector("form.composer textarea", { timeout: PAGE_WAIT_MS });
}

Deno.test({
  name: "browser: first run walks name/language/theme, connects a custom provider, finishes",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(
      async (run) => {
        const { page } = run;
        // The system prefers dark, so choosing Light visibly changes the page.
        await page.emulateMedia({ colorScheme: "dark" });
        await logIn(run);
        await page.waitForSelector(WIZARD, { timeout: PAGE_WAIT_MS });
        await waitStepTitle(page, "About you");
        assert.equal(await bodyBackground(page), DARK_BG, "system dark palette at first");
        // "System" follows the OS preference live, both ways.
        await page.emulateMedia({ colorScheme: "light" });
        await waitBackground(page, LIGHT_BG);
        await page.emulateMedia({ colorScheme: "dark" });
        await waitBackground(page, DARK_BG);

        // Step 1: name, then 中文 and Light, each applied at once.
        // The app's shortcuts open nothing behind the wizard (checked at step 3).
        await page.keyboard.press("Control+k");
        await page.fill("#onboarding-name", "Ana");
        await page.check("input[name=onboarding-language][value=zh-CN]");
        await waitStepTitle(page, "关于你");
        await page.check("input[name=onboarding-theme][value=light]");
        await waitBackground(page, LIGHT_BG);
        assert.equal(await page.getAttribute("html", "data-theme"), "light");
        assert.equal(await page.getAttribute("html", "lang"), "zh-CN");
        await page.click(`${WIZARD} .onboarding-actions button[type=submit]`);

        // Escape on step 2 goes back a step, keeping the name.
        await waitStepTitle(page, "接入模型");
        await page.keyboard.press("Escape");
        await waitStepTitle(page, "关于你");
        assert.equal(await page.inputValue("#onboarding-name"), "Ana");
        await page.click(`${WIZARD} .onboarding-actions button[type=submit]`);

        // Step 2: a refusal keeps the form; then the scripted model's provider connects.
        await waitStepTitle(page, "接入模型");
        await page.check("input[name=provider-kind][value=custom]");
        await page.fill("#provider-name", "Scripted");
        await page.fill("#provider-base-url", "http://127.0.0.1:9/v1");
        await page.click(`${WIZARD} .onboarding-actions button[type=submit]`);
        await page.waitForSelector(`${WIZARD} .onboarding-problem[role=alert]`);
        assert.equal(
          await page.textContent(`${WIZARD} .onboarding-problem`),
          "请至少列出一个模型 ID。",
        );
        assert.equal(await page.inputValue("#provider-name"), "Scripted", "input kept");
        await page.fill("#provider-models", "scripted-model");

        // Advanced: a window out of range is refused (the browser's own check, from the
        // protocol's bounds); a valid one, two levels and a default among them are saved
        // with the model.
        await page.click(`${WIZARD} .onboarding-advanced summary`);
        await page.fill("#provider-context-window", "100");
        assert.ok(await page.$("#provider-context-window:invalid"), "window 100 accepted");
        await page.fill("#provider-context-window", "65536");
        await page.check(`${WIZARD} .effort-levels label:text-is("低") input`);
        await page.check(`${WIZARD} .effort-levels label:text-is("高") input`);
        await page.selectOption("#provider-effort-default", "high");
        await page.click(`${WIZARD} .onboarding-actions button[type=submit]`);

        // Step 3: the summary of what was set.
        await waitStepTitle(page, "设置完成");
        const summary = await page.$$eval(
          `${WIZARD} .onboarding-summary dd`,
          (cells) => cells.map((cell) => cell.textContent),
        );
        assert.deepEqual(summary, ["Ana", "中文", "浅色", "Scripted", "scripted-model"]);
        const client = createHttpClient({ url: run.server.url, token: run.token });
        const saved = (await client.call("model.list", {})).models
          .find((model) => model.providerId === "scripted" && model.id === "scripted-model");
        assert.deepEqual(
          saved && [saved.contextWindow, saved.reasoningEfforts, saved.reasoningEffort],
          [65536, ["low", "high"], "high"],
          "Advanced settings not saved",
        );
        assert.equal(await page.$("dialog.search-dialog"), null, "search opened behind it");
        await page.click(`${WIZARD} .onboarding-actions button.primary`);
        await page.waitForSelector("dialog.onboarding-dialog", { state: "detached" });
        assert.deepEqual(JSON.parse(await storedRecord(page) ?? "null"), {
          completed: true,
          userName: "Ana",
        });

        // After a reload the composer lists the connected model and a message is
        // answered with it; by then the wizard would long have shown again.
        await page.reload();
        await waitConnected(page);
        await sendMessage(page, "hello", "Answer to: hello");
        assert.equal(await page.inputValue("form.composer select"), "scripted/scripted-model");
        assert.equal(await page.$("dialog.onboarding-dialog"), null, "wizard shown again");
        assert.equal(await page.getAttribute("html", "data-theme"), "light");
        assert.equal(await page.getAttribute("html", "lang"), "zh-CN");
        // The name from step 1 marks the user's own messages.
        assert.equal(await page.textContent("article.message.role-user header .author"), "Ana");
        assert.deepEqual(run.pageErrors, []);
      },
      undefined,
      { onboarding: true },
    ),
});

Deno.test({
  name: "browser: Skip setup closes the first-run wizard for good",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(
      async (run) => {
        const { page } = run;
        await logIn(run);
        await page.waitForSelector(WIZARD, { timeout: PAGE_WAIT_MS });
        // Escape on the first step does not close it; it points at Skip setup.
        await page.keyboard.press("Escape");
        await page.waitForFunction(
          "document.activeElement?.classList.contains('onboarding-skip-all') === true",
          undefined,
          { timeout: PAGE_WAIT_MS },
        );
        assert.ok(await page.$(WIZARD), "Escape closed the wizard");
        await page.keyboard.press("Enter");
        await page.waitForSelector("dialog.onboarding-dialog", { state: "detached" });
        assert.deepEqual(JSON.parse(await storedRecord(page) ?? "null"), {
          completed: true,
          userName: null,
        });
        await reloadConnected(page);
        assert.equal(await page.$("dialog.onboarding-dialog"), null, "wizard shown again");
        assert.deepEqual(run.pageErrors, []);
      },
      undefined,
      { onboarding: true },
    ),
});

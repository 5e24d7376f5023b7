/**
 * Browser test of Settings against a real `daedalus serve`: with no usable model, Send
 * opens Settings at Providers and models and keeps the draft; a custom provider added
 * through the form (after the runtime refuses a first attempt, keeping the input) makes
 * the scripted model usable; its enable switch and limits round-trip; the kept draft is
 * then sent and answered. General lists archived threads and switches the language at
 * once, and switches automatic titles off (a call the environment forces off cannot be
 * switched). Screenshots at 390×844 and 1440×900. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  waitForAnswer,
  waitForText,
  withBrowser,
} from "./_browser.ts";

const DRAFT = "please keep this draft";
const wait = { timeout: PAGE_WAIT_MS };

/** Waits for the composer's model picker to hold `value` ("" when no model is usable). */
function waitPicker(page: Page, value: string): Promise<unknown> {
  return page.waitForFunction(
    `document.querySelector('form.composer select')?.value === ${JSON.stringify(value)}`,
    undefined,
    wait,
  );
}

Deno.test({
  name: "browser: Settings makes a model usable, keeps the draft, and switches the language",
  ignore: !hasChromium,
  fn: async () => {
    const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
      await Deno.makeTempDir({ prefix: "daedalus_screenshots_" });
    await Deno.mkdir(dir, { recursive: true });
    await withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      // The harness lists the scripted model; without that provider no model is usable.
      await client.call("provider.remove", { providerId: "scripted" });
      const { thread } = await client.call("thread.create", { title: "Old notes" });
      await client.call("thread.archive", { threadId: thread.id });
      await logIn(run);

      // No usable model: Send opens Settings at Providers and models; the draft stays.
      await page.click("nav.sidebar button.new-thread");
      await page.waitForSelector("form.composer textarea", wait);
      await waitPicker(page, "");
      await page.fill("form.composer textarea", DRAFT);
      await page.click("form.composer button[type=submit]");
      await page.waitForSelector("dialog.settings[open]", wait);
      assert.equal(
        await page.getAttribute("#settings-tab-providers", "aria-selected"),
        "true",
        "Settings did not open at Providers and models",
      );
      await page.waitForSelector("dialog.settings .settings-notice", wait);
      assert.equal(await page.inputValue("form.composer textarea"), DRAFT);

      // The section tabs follow arrows, Home and End.
      await page.focus("#settings-tab-providers");
      await page.keyboard.press("End");
      await page.waitForSelector("#settings-tab-general[aria-selected=true]", wait);
      assert.equal(await page.evaluate("document.activeElement?.id"), "settings-tab-general");
      await page.keyboard.press("Home");
      await page.waitForSelector("#settings-tab-providers[aria-selected=true]", wait);

      // A custom provider: the runtime refuses the built-in id; the form keeps the input.
      await page.click("dialog.settings button.settings-add");
      await page.waitForSelector("form.provider-form #custom-providerId", wait);
      await page.fill("#custom-providerId", "deepseek");
      await page.fill("#custom-displayName", "Scripted");
      await page.fill("#custom-baseUrl", "http://127.0.0.1:9/v1");
      await page.fill("#custom-models", "scripted-model");
      await page.click("form.provider-form button[type=submit]");
      await page.waitForSelector("form.provider-form .settings-error", wait);
      assert.match(
        await page.textContent("form.provider-form .settings-error") ?? "",
        /built-in provider/,
      );
      assert.equal(await page.inputValue("#custom-baseUrl"), "http://127.0.0.1:9/v1");
      assert.equal(await page.inputValue("#custom-models"), "scripted-model");

      // Discovery at an address nothing answers: the runtime's error, the input kept.
      await page.click("form.provider-form button.discover");
      await page.waitForFunction(
        "(document.querySelector('form.provider-form .settings-error')?.textContent ?? " +
          "'built-in').match(/built-in/) === null",
        undefined,
        wait,
      );
      const discoveryError = await page.textContent("form.provider-form .settings-error");
      assert.ok(discoveryError?.trim(), "no discovery error shown");
      assert.equal(await page.inputValue("#custom-models"), "scripted-model");

      await page.fill("#custom-providerId", "scripted");
      await page.click("form.provider-form button[type=submit]");
      const row = "section.provider-card[data-provider=scripted] li[data-model=scripted-model]";
      await page.waitForSelector(row, wait);
      await page.waitForSelector("form.provider-form", { ...wait, state: "detached" });
      await waitPicker(page, "scripted/scripted-model");

      // The enable switch takes the model out of the composer and back.
      const toggle = `${row} input[role=switch]`;
      await page.uncheck(toggle);
      await waitPicker(page, "");
      await page.waitForSelector(`${toggle}:not(:checked):not(:disabled)`, wait);
      await page.check(toggle);
      await waitPicker(page, "scripted/scripted-model");

      // Escape in the limits form closes that form only, not Settings.
      await page.click(`${row} button[aria-expanded]`);
      const windowInput = `${row} form.limits-form input[inputmode=numeric]`;
      await page.waitForSelector(windowInput, wait);
      await page.press(windowInput, "Escape");
      await page.waitForSelector(`${row} form.limits-form`, { ...wait, state: "detached" });
      assert.ok(await page.$("dialog.settings[open]"), "Settings stays open");

      // Limits: a window below the minimum is named; a valid one is saved and shown.
      await page.click(`${row} button[aria-expanded]`);
      await page.waitForSelector(windowInput, wait);
      await page.fill(windowInput, "500");
      await page.click(`${row} form.limits-form button[type=submit]`);
      await page.waitForSelector(`${row} form.limits-form .settings-problem`, wait);
      await page.fill(windowInput, "65536");
      await page.click(`${row} form.limits-form fieldset label:text-is("High") input`);
      await page.selectOption(`${row} form.limits-form select`, "high");
      await page.click(`${row} form.limits-form button[type=submit]`);
      await page.waitForSelector(`${row} form.limits-form`, { ...wait, state: "detached" });
      const { models } = await client.call("model.list", { providerId: "scripted" });
      assert.equal(models[0]?.contextWindow, 65536);
      assert.deepEqual(models[0]?.reasoningEfforts, ["high"]);
      assert.equal(models[0]?.reasoningEffort, "high");
      assert.match(await page.textContent(`${row} .model-window`) ?? "", /65,536/);

      for (const [width, height] of [[390, 844], [1440, 900]] as const) {
        await page.setViewportSize({ width, height });
        // The sections are a row on a phone and a column otherwise; the tab list says so.
        const orientation = width < 640 ? "horizontal" : "vertical";
        await page.waitForSelector(`dialog.settings [aria-orientation=${orientation}]`, wait);
        const path = `${dir}/settings-${width}x${height}.png`;
        await page.screenshot({ path });
        const { size } = await Deno.stat(path);
        assert.ok(size > 1000, `${path} is only ${size} bytes`);
        const box = await page.locator("dialog.settings").boundingBox();
        assert.ok(box !== null, "no settings dialog");
        assert.ok(box.x >= 0 && box.x + box.width <= width, `Settings overflow at ${width}`);
        if (width === 390) assert.equal(Math.round(box.width), 390, "not full screen on a phone");
      }

      // Close; the kept draft is sent with the model that is usable now.
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.settings", { ...wait, state: "detached" });
      assert.equal(await page.inputValue("form.composer textarea"), DRAFT);
      await page.click("form.composer button[type=submit]");
      await waitForAnswer(page, `Answer to: ${DRAFT}`);

      // General (Ctrl+,): archived threads, and the language switches at once.
      await page.keyboard.press("Control+,");
      await page.waitForSelector("dialog.settings[open]", wait);
      await page.click("#settings-tab-general");
      await page.waitForSelector("dialog.settings .archived-list li", wait);
      assert.equal(await page.textContent("dialog.settings .archived-list .title"), "Old notes");
      await page.selectOption("dialog.settings .settings-general select", "zh-CN");
      await waitForText(page, "#settings-tab-general", "通用");
      assert.equal(await page.textContent("#settings-title"), "设置");
      assert.equal(await page.evaluate("localStorage.getItem('daedalus.locale')"), "zh-CN");

      // The local profile's name (General) marks the user's messages at once.
      await page.fill("dialog.settings input.user-name", "Bo");
      await page.press("dialog.settings input.user-name", "Tab");
      await page.waitForFunction(
        "JSON.parse(localStorage.getItem('daedalus.onboarding') ?? '{}').userName === 'Bo'",
        undefined,
        wait,
      );

      // Sign out: the session ends; the page (and a reload) shows the sign-in help.
      await Promise.all([
        page.waitForEvent("load", wait),
        page.click("dialog.settings button.log-out"),
      ]);
      await page.waitForSelector(".no-session", wait);
      await page.reload();
      await page.waitForSelector(".no-session", wait);
      assert.deepEqual(run.pageErrors, []);
    }, { width: 1440, height: 900 });
    console.log(`screenshots: ${dir}`);
  },
});

Deno.test({
  name: "browser: Settings saves a DeepSeek key unseen, edits and removes a custom provider",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const secret = "sk-browser-test-0123456789abcdef";
      await logIn(run);
      // The gear stays reachable in the collapsed sidebar.
      await page.click("nav.sidebar button.sidebar-toggle");
      await page.click("nav.sidebar.collapsed button.open-settings");
      await page.waitForSelector("dialog.settings[open] section[data-provider=deepseek]", wait);
      const deepseek = "section.provider-card[data-provider=deepseek]";
      assert.equal(await page.textContent(`${deepseek} .provider-state`), "Not configured");

      // The key is saved, the field emptied, and the key appears nowhere in the page.
      await page.fill(`${deepseek} input[type=password]`, secret);
      await page.click(`${deepseek} form button[type=submit]`);
      // The field is emptied once the save (and the refresh after it) is done.
      await page.waitForFunction(
        `document.querySelector('${deepseek} .provider-state')?.textContent` +
          ` === 'Configured · API key saved'` +
          ` && document.querySelector('${deepseek} input[type=password]')?.value === ''`,
        undefined,
        wait,
      );
      assert.equal((await page.content()).includes(secret), false, "the key is in the page");
      await page.waitForSelector(`${deepseek} li.model-row`, wait);

      // Disconnect forgets it.
      await page.click(`${deepseek} .settings-buttons button:not(.discover)`);
      await waitForText(page, `${deepseek} .provider-state`, "Not configured");

      // Edit the harness's custom provider: the id is fixed, the rest is prefilled.
      const scripted = "section.provider-card[data-provider=scripted]";
      await page.click(`${scripted} .settings-buttons button >> text=Edit`);
      await page.waitForSelector("form.provider-form #custom-displayName", wait);
      assert.equal(await page.getAttribute("#custom-providerId", "readonly"), "");
      assert.equal(await page.inputValue("#custom-providerId"), "scripted");
      assert.equal(await page.inputValue("#custom-models"), "scripted-model");
      await page.fill("#custom-displayName", "Scripted again");
      await page.click("form.provider-form button[type=submit]");
      await waitForText(page, `${scripted} h4`, "Scripted again");
      await page.waitForSelector(`${scripted} li[data-model=scripted-model]`, wait);

      // Remove asks first; Cancel keeps it, Remove takes it and its model away.
      await page.click(`${scripted} .settings-buttons button >> text=Remove`);
      await page.waitForSelector(`${scripted} .settings-confirm`, wait);
      await page.click(`${scripted} .settings-confirm button >> text=Cancel`);
      await page.waitForSelector(`${scripted} .settings-confirm`, { ...wait, state: "detached" });
      await page.click(`${scripted} .settings-buttons button >> text=Remove`);
      await page.click(`${scripted} .settings-confirm button.danger`);
      await page.waitForSelector(scripted, { ...wait, state: "detached" });
      await page.waitForSelector("dialog.settings .settings-notice", wait);
      const client = createHttpClient({ url: run.server.url, token: run.token });
      const { providers } = await client.call("provider.list", {});
      assert.deepEqual(providers.map((provider) => provider.id), ["deepseek"]);
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name:
    "browser: General switches automatic titles off in config.yaml; a forced-off call cannot be switched",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(
      async (run) => {
        const { page } = run;
        const client = createHttpClient({ url: run.server.url, token: run.token });
        await logIn(run);
        await page.keyboard.press("Control+,");
        await page.waitForSelector("dialog.settings[open]", wait);
        await page.click("#settings-tab-general");
        const titles =
          "dialog.settings .auxiliary-switches button[aria-label='Name new conversations automatically']";
        const refinement =
          "dialog.settings .auxiliary-switches button[aria-label='Learn memories from conversations']";
        await page.waitForSelector(`${titles}[aria-checked=true]`, wait);
        await page.click(titles);
        await page.waitForSelector(`${titles}[aria-checked=false]`, wait);
        const { settings } = await client.call("settings.read", {});
        assert.equal(settings.threadTitles, false, "the switch did not reach config.yaml");
        // The fixture forces refinement off unless DAEDALUS_MEMORY_REFINEMENT=1.
        assert.equal(await page.getAttribute(refinement, "aria-disabled"), "true");
        assert.equal(await page.getAttribute(refinement, "aria-checked"), "false");
        assert.match(
          await page.textContent("dialog.settings .auxiliary-switches") ?? "",
          /DAEDALUS_MEMORY_REFINEMENT=0/,
        );
        assert.deepEqual(run.pageErrors, []);
      },
      { width: 1280, height: 800 },
      { env: { DAEDALUS_THREAD_TITLES: "1" } },
    ),
});

Deno.test({
  name:
    "browser: a new provider starts from a known service: Ollama fills id, name and URL, a second choice follows",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await page.click("nav.sidebar button.open-settings");
      await page.click("dialog.settings button.settings-add");
      await page.waitForSelector("form.provider-form #custom-preset", wait);
      await page.selectOption("#custom-preset", "ollama");
      assert.equal(await page.inputValue("#custom-providerId"), "ollama");
      assert.equal(await page.inputValue("#custom-displayName"), "Ollama");
      assert.equal(await page.inputValue("#custom-baseUrl"), "http://127.0.0.1:11434/v1");
      assert.match(
        await page.textContent("form.provider-form .settings-field:has(#custom-preset) small") ??
          "",
        /no key needed/,
      );
      // A URL the user typed stays when another service is chosen; the rest follows.
      await page.fill("#custom-baseUrl", "http://gpu-box:11434/v1");
      await page.selectOption("#custom-preset", "openrouter");
      assert.equal(await page.inputValue("#custom-providerId"), "openrouter");
      assert.equal(await page.inputValue("#custom-baseUrl"), "http://gpu-box:11434/v1");
      assert.deepEqual(run.pageErrors, []);
    }),
});

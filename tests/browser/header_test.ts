/**
 * Browser test of the conversation header against a real `daedalus serve`: the model
 * label, and the thread menu driven from the keyboard to rename and archive. Skipped
 * without Chromium.
 */
import assert from "node:assert/strict";
import { hasChromium, logIn, PAGE_WAIT_MS, sendMessage, withBrowser } from "./_browser.ts";

Deno.test({
  name: "browser: the header shows the model; its menu renames and archives from the keyboard",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await sendMessage(page, "hello", "Answer to: hello");
      assert.equal(await page.textContent(".conversation-header .model-label"), "scripted-model");

      await page.focus("button.thread-menu");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[role=menu]", { timeout: PAGE_WAIT_MS });
      await page.waitForFunction("document.activeElement?.textContent === 'Rename'");
      await page.keyboard.press("ArrowDown");
      await page.waitForFunction("document.activeElement?.textContent === 'Export as Markdown'");
      await page.keyboard.press("End");
      await page.waitForFunction("document.activeElement?.textContent === 'Delete…'");
      await page.keyboard.press("ArrowUp");
      await page.waitForFunction("document.activeElement?.textContent === 'Archive'");
      await page.keyboard.press("Home");
      await page.waitForFunction("document.activeElement?.textContent === 'Rename'");
      await page.keyboard.press("Enter");
      await page.waitForSelector("input.rename", { timeout: PAGE_WAIT_MS });
      await page.fill("input.rename", "Renamed thread");
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        "document.querySelector('.conversation-header h1')?.textContent === 'Renamed thread'" +
          " && document.querySelector('nav.sidebar button.thread')?.textContent === 'Renamed thread'",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );

      // Escape closes the menu and gives the focus back to its button.
      await page.focus("button.thread-menu");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[role=menu]");
      await page.keyboard.press("Escape");
      await page.waitForSelector("[role=menu]", { state: "detached" });
      assert.equal(await page.evaluate("document.activeElement?.className"), "thread-menu");

      await page.keyboard.press("Enter");
      await page.waitForFunction("document.activeElement?.textContent === 'Rename'");
      await page.keyboard.press("End");
      await page.keyboard.press("ArrowUp");
      await page.waitForFunction("document.activeElement?.textContent === 'Archive'");
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        "document.querySelectorAll('nav.sidebar button.thread').length === 0" +
          " && document.querySelector('.conversation-header') === null",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: Ctrl+/ lists the keyboard shortcuts; Settings › General opens the same list",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await page.keyboard.press("Control+/");
      await page.waitForSelector("dialog.shortcuts-dialog[open] dl.shortcuts", {
        timeout: PAGE_WAIT_MS,
      });
      const keys = await page.$$eval(
        "dl.shortcuts kbd",
        (nodes) => nodes.map((n) => n.textContent),
      );
      assert.ok(keys.includes("Ctrl/Cmd+K") && keys.includes("Alt+↑ / Alt+↓"), String(keys));
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.shortcuts-dialog", { state: "detached" });

      await page.keyboard.press("Control+,");
      await page.waitForSelector("dialog.settings[open]", { timeout: PAGE_WAIT_MS });
      await page.click("#settings-tab-general");
      await page.click("dialog.settings button.show-shortcuts");
      await page.waitForSelector("dialog.shortcuts-dialog[open]", { timeout: PAGE_WAIT_MS });
      assert.equal(await page.$("dialog.settings"), null, "Settings closed first");
      assert.deepEqual(run.pageErrors, []);
    }),
});

/**
 * Browser test of Settings › Appearance against a real `daedalus serve`: the theme changes
 * the page's computed background at once, an accent colour lands in `--accent` on
 * `<html>`, an unsafe custom font is refused while a valid list is applied to
 * `--font-ui`, reduced motion sets its attribute; everything survives a reload, and
 * corrupt stored preferences give the defaults without a page error. Skipped without
 * Chromium.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, logIn, PAGE_WAIT_MS, waitConnected, withBrowser } from "./_browser.ts";

const wait = { timeout: PAGE_WAIT_MS };
const STORAGE_KEY = "daedalus.appearance";
const DARK_BG = "rgb(15, 23, 42)";
const LIGHT_BG = "rgb(255, 255, 255)";
const SECTION = "dialog.settings[open] section.appearance-section";
/**
 * Reduce motion's "On" radio by its label: Preact leaves out `value="on"` (the radio's
 * default value), so no attribute selector finds it.
 */
const MOTION_ON =
  `${SECTION} fieldset:has(input[name=appearance-motion]) >> role=radio[name="On"s]`;
const CUSTOM_UI_FONT = "#appearance-ui-font ~ input[type=text]";
/** The stylesheet's UI font (`UI_FONTS.system`), which the app also sets inline. */
const DEFAULT_UI_FONT =
  'system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif';

const rootVariable = (page: Page, name: string) =>
  page.evaluate<string>(
    `document.documentElement.style.getPropertyValue(${JSON.stringify(name)}).trim()`,
  );

function waitBackground(page: Page, color: string): Promise<unknown> {
  return page.waitForFunction(
    `getComputedStyle(document.body).backgroundColor === ${JSON.stringify(color)}`,
    undefined,
    wait,
  );
}

function waitRootVariable(page: Page, name: string, value: string): Promise<unknown> {
  return page.waitForFunction(
    `document.documentElement.style.getPropertyValue(${JSON.stringify(name)}).trim() === ${
      JSON.stringify(value)
    }`,
    undefined,
    wait,
  );
}

/** Opens Settings with Ctrl+, and switches to the Appearance tab. */
async function openAppearance(page: Page): Promise<void> {
  await page.keyboard.press("Control+,");
  await page.waitForSelector("dialog.settings[open]", wait);
  await page.click("#settings-tab-appearance");
  await page.waitForSelector("#settings-tab-appearance[aria-selected=true]", wait);
  await page.waitForSelector(SECTION, wait);
}

async function closeSettings(page: Page): Promise<void> {
  await page.keyboard.press("Escape");
  await page.waitForSelector("dialog.settings", { ...wait, state: "detached" });
}

const checked = (page: Page, selector: string) => page.isChecked(selector);

Deno.test({
  name:
    "browser: Appearance applies theme, accent, fonts and motion, remembers them, survives corruption",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      // The system prefers light, so choosing Dark and then Light each change the page.
      await page.emulateMedia({ colorScheme: "light" });
      await logIn(run);
      await waitBackground(page, LIGHT_BG);
      await openAppearance(page);

      await page.check(`${SECTION} input[name=appearance-theme][value=dark]`);
      await waitBackground(page, DARK_BG);
      assert.equal(await page.getAttribute("html", "data-theme"), "dark");
      await page.check(`${SECTION} input[name=appearance-theme][value=light]`);
      await waitBackground(page, LIGHT_BG);
      assert.equal(await page.getAttribute("html", "data-theme"), "light");

      // An accent colour for the light palette goes onto <html> as --accent.
      assert.equal(await rootVariable(page, "--accent"), "", "no accent override at first");
      await page.fill("#appearance-color-accent", "#aa3366");
      await waitRootVariable(page, "--accent", "#aa3366");
      // The theme preview draws with it at once.
      assert.equal(
        await page.evaluate<string>(
          "getComputedStyle(document.querySelector('.theme-preview-button')).backgroundColor",
        ),
        "rgb(170, 51, 102)",
      );

      // A custom UI font: CSS that would escape the declaration is refused and nothing
      // changes; a plain family list is applied (names with spaces quoted).
      assert.equal(await rootVariable(page, "--font-ui"), DEFAULT_UI_FONT);
      await page.selectOption("#appearance-ui-font", "custom");
      await page.waitForSelector(CUSTOM_UI_FONT, wait);
      await page.fill(CUSTOM_UI_FONT, "x; } body { display:none");
      await page.waitForSelector(`${CUSTOM_UI_FONT}[aria-invalid=true]`, wait);
      assert.equal(await rootVariable(page, "--font-ui"), DEFAULT_UI_FONT, "unsafe font applied");
      assert.notEqual(
        await page.evaluate<string>("getComputedStyle(document.body).display"),
        "none",
        "the unsafe text reached the page's styles",
      );
      await page.fill(CUSTOM_UI_FONT, "Fira Sans, serif");
      await waitRootVariable(page, "--font-ui", '"Fira Sans", serif');
      assert.equal(await page.getAttribute(CUSTOM_UI_FONT, "aria-invalid"), "false");

      // Reduced motion On is an attribute the stylesheet keys on.
      assert.equal(await page.getAttribute("html", "data-reduced-motion"), "system");
      await page.locator(MOTION_ON).check();
      await page.waitForSelector("html[data-reduced-motion=on]", { ...wait, state: "attached" });
      await closeSettings(page);

      // After a reload everything is applied before Settings is opened, and the section
      // shows what was chosen.
      await page.reload();
      await waitConnected(page);
      await waitBackground(page, LIGHT_BG);
      assert.equal(await page.getAttribute("html", "data-theme"), "light");
      assert.equal(await rootVariable(page, "--accent"), "#aa3366");
      assert.equal(await rootVariable(page, "--font-ui"), '"Fira Sans", serif');
      assert.equal(await page.getAttribute("html", "data-reduced-motion"), "on");
      await openAppearance(page);
      assert.ok(await checked(page, `${SECTION} input[name=appearance-theme][value=light]`));
      assert.ok(await page.locator(MOTION_ON).isChecked());
      assert.equal(await page.inputValue("#appearance-ui-font"), "custom");
      assert.equal(await page.inputValue(CUSTOM_UI_FONT), '"Fira Sans", serif');
      assert.equal(await page.inputValue("#appearance-color-accent"), "#aa3366");
      await closeSettings(page);

      // Corrupt storage: the defaults (follow the system, which now prefers dark; no
      // overrides; the system font; motion as the system says), and no page error.
      await page.emulateMedia({ colorScheme: "dark" });
      await page.evaluate(`localStorage.setItem(${JSON.stringify(STORAGE_KEY)}, '{"theme":')`);
      await page.reload();
      await waitConnected(page);
      await waitBackground(page, DARK_BG);
      assert.equal(await page.getAttribute("html", "data-theme"), "dark");
      assert.equal(await rootVariable(page, "--accent"), "");
      assert.equal(await rootVariable(page, "--font-ui"), DEFAULT_UI_FONT);
      assert.equal(await page.getAttribute("html", "data-reduced-motion"), "system");
      await openAppearance(page);
      assert.ok(await checked(page, `${SECTION} input[name=appearance-theme][value=system]`));
      assert.equal(await page.inputValue("#appearance-ui-font"), "system");
      assert.deepEqual(run.pageErrors, []);
    }),
});

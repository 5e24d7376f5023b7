/**
 * Browser test of the sidebar's layout against a real `daedalus serve`: resizing from
 * the keyboard within 220–520 px and collapsing, both remembered across a reload.
 * Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { hasChromium, logIn, PAGE_WAIT_MS, waitConnected, withBrowser } from "./_browser.ts";

Deno.test({
  name: "browser: the sidebar resizes from the keyboard, collapses, and remembers both",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      const width = () =>
        page.$eval("nav.sidebar", (nav) => Math.round(nav.getBoundingClientRect().width));
      assert.equal(await width(), 260);

      await page.focus("[role=separator]");
      await page.keyboard.press("End");
      await page.keyboard.press("ArrowLeft");
      await page.waitForFunction(
        "document.querySelector('[role=separator]')?.getAttribute('aria-valuenow') === '504'",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      assert.equal(await width(), 504);
      await page.keyboard.press("Home");
      await page.keyboard.press("ArrowLeft");
      await page.waitForFunction(
        "document.querySelector('[role=separator]')?.getAttribute('aria-valuenow') === '220'",
      );
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction(
        "document.querySelector('[role=separator]')?.getAttribute('aria-valuenow') === '236'",
      );

      await page.reload();
      await waitConnected(page);
      assert.equal(await width(), 236, "the width is remembered");

      await page.click("nav.sidebar button.sidebar-toggle");
      await page.waitForSelector("nav.sidebar.collapsed", { timeout: PAGE_WAIT_MS });
      assert.equal(await page.$("[role=separator]"), null);
      await page.reload();
      await page.waitForSelector("nav.sidebar.collapsed", { timeout: PAGE_WAIT_MS });
      await page.click("nav.sidebar button.sidebar-toggle");
      await page.waitForSelector("nav.sidebar button.new-thread", { timeout: PAGE_WAIT_MS });
      assert.equal(await width(), 236);
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: dragging the sidebar's edge resizes it within 220–520 px",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      const edge = await page.$("[role=separator]");
      const box = await edge?.boundingBox();
      assert.ok(box, "the splitter is on screen");
      const y = box.y + box.height / 2;
      const x = box.x + box.width / 2;
      const valueNow = () => page.getAttribute("[role=separator]", "aria-valuenow");
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + 100, y, { steps: 5 });
      await page.mouse.up();
      assert.equal(await valueNow(), "360");
      // Past either end the width stops at the bound.
      await page.mouse.move(x + 100, y);
      await page.mouse.down();
      await page.mouse.move(x + 900, y, { steps: 5 });
      await page.mouse.up();
      assert.equal(await valueNow(), "520");
      const wide = await (await page.$("[role=separator]"))?.boundingBox();
      await page.mouse.move(wide!.x + wide!.width / 2, y);
      await page.mouse.down();
      await page.mouse.move(5, y, { steps: 5 });
      await page.mouse.up();
      assert.equal(await valueNow(), "220");
      // After the drag ends, moving the pointer changes nothing.
      await page.mouse.move(600, y, { steps: 3 });
      assert.equal(await valueNow(), "220");
      assert.deepEqual(run.pageErrors, []);
    }),
});

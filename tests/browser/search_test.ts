/**
 * Browser test of the thread search (Ctrl/Cmd+K) against a real `daedalus serve`:
 * filtering loaded titles, arrow keys and Enter to open. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  waitForCount,
  waitForTextContaining,
  withBrowser,
} from "./_browser.ts";

Deno.test({
  name: "browser: Ctrl+K finds a thread by title and opens it from the keyboard",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      for (const title of ["Release plan", "Beta notes", "Beta launch checklist"]) {
        await client.call("thread.create", { title });
      }
      await logIn(run);
      await page.keyboard.press("Control+k");
      await page.waitForSelector("dialog.search-dialog[open] input", { timeout: PAGE_WAIT_MS });
      await page.keyboard.type("beta");
      await waitForCount(page, "dialog.search-dialog [role=option]", 2);
      const options = await page.$$eval(
        "dialog.search-dialog [role=option]",
        (items) => items.map((item) => [item.textContent, item.getAttribute("aria-selected")]),
      );
      // Most recent first; the first result is active.
      assert.deepEqual(options, [["Beta launch checklist", "true"], ["Beta notes", "false"]]);
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await page.waitForSelector("dialog.search-dialog", { state: "detached" });
      await waitForTextContaining(
        page,
        "nav.sidebar button.thread[aria-current=page]",
        "Beta notes",
      );
      // Nothing matching says so; Escape closes.
      await page.keyboard.press("Control+k");
      await page.waitForSelector("dialog.search-dialog[open] input", { timeout: PAGE_WAIT_MS });
      await page.keyboard.type("nothing like this");
      await page.waitForSelector("dialog.search-dialog p.muted", { timeout: PAGE_WAIT_MS });
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.search-dialog", { state: "detached" });
      assert.deepEqual(run.pageErrors, []);
    }),
});

/**
 * Browser test of archived threads against a real `daedalus serve`: the sidebar's
 * Archived dialog lists them and Unarchive brings one back. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import { hasChromium, logIn, PAGE_WAIT_MS, waitForCount, withBrowser } from "./_browser.ts";

Deno.test({
  name: "browser: archived threads are listed apart and Unarchive returns one to the sidebar",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await client.call("thread.create", { title: "Still active" });
      const { thread } = await client.call("thread.create", { title: "Old project" });
      await client.call("thread.archive", { threadId: thread.id });
      await logIn(run);
      const titles = () =>
        page.$$eval("nav.sidebar button.thread", (buttons) => buttons.map((b) => b.textContent));
      assert.deepEqual(await titles(), ["Still active"]);

      await page.click("nav.sidebar button.archived-threads");
      await page.waitForSelector("dialog.archived-dialog[open] li", { timeout: PAGE_WAIT_MS });
      assert.equal(await page.textContent("dialog.archived-dialog li .title"), "Old project");
      await page.click("dialog.archived-dialog li button");
      await page.waitForSelector("dialog.archived-dialog p.muted", { timeout: PAGE_WAIT_MS });
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.archived-dialog", { state: "detached" });
      await waitForCount(page, "nav.sidebar button.thread", 2);
      assert.deepEqual((await titles()).sort(), ["Old project", "Still active"]);
      assert.deepEqual(run.pageErrors, []);
    }),
});

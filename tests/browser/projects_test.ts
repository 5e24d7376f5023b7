/**
 * Browser tests of the sidebar's grouping and paging against a real `daedalus serve` in
 * Debian's Chromium: threads of a project folder are grouped under the project (created
 * from the "new project thread" dialog and the group's "+"), arrow keys move between
 * threads across groups, and more than 100 threads are reachable with "load more".
 * Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  waitForAnswer,
  waitForCount,
  withBrowser,
} from "./_browser.ts";

const ignore = !hasChromium;

Deno.test({
  name: "browser: project threads are grouped under their folder; arrows move between threads",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const folder = await Deno.makeTempDir({ prefix: "daedalus_project_" });
      try {
        const client = createHttpClient({ url: run.server.url, token: run.token });
        await client.call("thread.create", { title: "Loose thread" });
        await logIn(run);

        await page.click("nav.sidebar button.new-project-thread");
        await page.waitForSelector("dialog.new-project[open] input", { timeout: PAGE_WAIT_MS });
        // An empty path is refused in the dialog itself.
        await page.click("dialog.new-project button[type=submit]");
        await page.waitForSelector("dialog.new-project input[aria-invalid=true]");
        // A folder the runtime refuses: its reason beside the field, in the dialog.
        await page.fill("dialog.new-project input >> nth=0", `${folder}/does-not-exist`);
        await page.click("dialog.new-project button[type=submit]");
        const refusal = await page.waitForSelector("dialog.new-project .field-problem", {
          timeout: PAGE_WAIT_MS,
        });
        assert.ok((await refusal.textContent())?.trim(), "the runtime's reason is shown");
        assert.equal(await page.$("div.error[role=alert]"), null, "not behind the backdrop");
        await page.fill("dialog.new-project input >> nth=0", folder);
        await page.fill("dialog.new-project input >> nth=1", "Site");
        await page.click("dialog.new-project button[type=submit]");
        await page.waitForSelector("dialog.new-project", { state: "detached" });
        await page.waitForSelector("nav.sidebar section.project[aria-label=Site] button.thread");
        // A second thread in the same project from the group's "+": the start screen says
        // which folder, and the thread is made with its first message.
        await page.click("nav.sidebar section.project button.project-new");
        await page.waitForSelector("form.composer .project-card:has-text('Site')", {
          timeout: PAGE_WAIT_MS,
        });
        assert.equal(
          await page.$$eval("nav.sidebar section.project button.thread", (b) => b.length),
          1,
          "no thread before its first message",
        );
        await page.fill("form.composer textarea", "in the project");
        await page.click("form.composer button[type=submit]");
        await waitForAnswer(page, "Answer to: in the project");
        assert.equal(await page.$("form.composer .project-card"), null, "gone after a message");
        await waitForCount(page, "nav.sidebar section.project button.thread", 2);
        const { threads } = await client.call("thread.list", { limit: 10 });
        const inProject = threads.filter((t) => t.workspace?.kind === "project");
        assert.equal(inProject.length, 2);
        assert.equal(new Set(inProject.map((t) => t.workspace?.rootUri)).size, 1);
        assert.equal(inProject[0]?.workspace?.name, "Site");
        // The loose thread stays outside the group.
        assert.equal(
          await page.textContent("nav.sidebar ul.threads:not(section ul) button.thread"),
          "Loose thread",
        );

        // Arrow keys walk every thread button, groups included; End and Home jump.
        await page.focus("nav.sidebar button.thread >> nth=0");
        await page.keyboard.press("ArrowDown");
        const focusedIndex =
          "[...document.querySelectorAll('nav.sidebar button.thread')].indexOf(document.activeElement)";
        assert.equal(await page.evaluate<number>(focusedIndex), 1);
        await page.keyboard.press("End");
        assert.equal(await page.evaluate<number>(focusedIndex), 2);
        await page.keyboard.press("Home");
        assert.equal(await page.evaluate<number>(focusedIndex), 0);

        // Collapsing the project hides its threads.
        await page.click("nav.sidebar button.project-toggle");
        await waitForCount(page, "nav.sidebar button.thread", 1);
        assert.equal(
          await page.getAttribute("nav.sidebar button.project-toggle", "aria-expanded"),
          "false",
        );
        assert.deepEqual(run.pageErrors, []);
      } finally {
        await Deno.remove(folder, { recursive: true });
      }
    }),
});

Deno.test({
  name: "browser: more than 100 threads are reachable with load more",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      for (let i = 0; i < 105; i++) await client.call("thread.create", { title: `T${i}` });
      await logIn(run);
      await waitForCount(page, "nav.sidebar button.thread", 100);
      await page.click("nav.sidebar button.more-threads");
      await waitForCount(page, "nav.sidebar button.thread", 105);
      assert.equal(await page.$("nav.sidebar button.more-threads"), null);
      assert.deepEqual(run.pageErrors, []);
    }),
});

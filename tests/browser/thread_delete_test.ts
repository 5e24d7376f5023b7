/**
 * Browser test of Delete… against a real `daedalus serve` (the scripted fixture): the thread
 * menu opens the confirmation dialog (what is erased, what stays), Escape cancels it, Delete
 * removes the thread from the sidebar and the address, and a second page that had it open
 * shows the start screen with "This thread was deleted.". A thread with a running Run says
 * why it cannot be deleted. Screenshots of the dialog, light and dark, go to a temp folder.
 * Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  sendMessage,
  startMessage,
  waitForCount,
  withBrowser,
} from "./_browser.ts";

async function openDeleteDialog(page: Page): Promise<void> {
  await page.click("header.conversation-header button.thread-menu");
  await page.click("[role=menu] [role=menuitem]:has-text('Delete…')");
  await page.waitForSelector("dialog.delete-dialog[open]", { timeout: PAGE_WAIT_MS });
}

Deno.test({
  name: "browser: Delete… confirms, removes the thread here and shows the notice on another page",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page, context } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await client.call("thread.create", { title: "Keep me" });
      await logIn(run);
      await sendMessage(page, "a question to forget", "Answer to: a question to forget");
      const threadId = await page.evaluate<string>("location.hash.slice(4)");
      assert.match(threadId, /^thread_[0-9a-f]{32}$/);
      await waitForCount(page, "nav.sidebar button.thread", 2);

      // A second page with the same thread open.
      const other = await context.newPage();
      await other.goto(`${run.server.url}/#/t/${threadId}`);
      await other.waitForSelector("article.message.role-user", { timeout: PAGE_WAIT_MS });

      // Escape cancels: nothing is deleted.
      await openDeleteDialog(page);
      const dialog = await page.textContent("dialog.delete-dialog");
      assert.match(dialog ?? "", /conversation and its history in Daedalus are erased/);
      assert.match(dialog ?? "", /Files in your workspace are not touched\. Memories stay\./);
      assert.equal(
        await page.evaluate<string>("document.activeElement?.textContent ?? ''"),
        "Cancel",
        "Cancel has the focus, not Delete",
      );
      const shots = await Deno.makeTempDir({ prefix: "daedalus_delete_shots_" });
      await page.screenshot({ path: `${shots}/delete-light.png` });
      await page.emulateMedia({ colorScheme: "dark" });
      await page.waitForTimeout(400); // the theme's colour transitions finish
      await page.screenshot({ path: `${shots}/delete-dark.png` });
      await page.emulateMedia({ colorScheme: "light" });
      console.log(`screenshots: ${shots}`);
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.delete-dialog", { state: "detached" });
      await waitForCount(page, "nav.sidebar button.thread", 2);

      await openDeleteDialog(page);
      await page.click("dialog.delete-dialog button.delete-confirm");
      await page.waitForSelector("dialog.delete-dialog", { state: "detached" });
      await waitForCount(page, "nav.sidebar button.thread", 1);
      assert.equal(await page.textContent("nav.sidebar button.thread .title"), "Keep me");
      await page.waitForFunction("location.hash === '#/' || location.hash === ''", undefined, {
        timeout: PAGE_WAIT_MS,
      });
      assert.equal(await page.$(".start-notice"), null, "the page that deleted needs no notice");

      await other.waitForSelector(".start-notice:has-text('This thread was deleted.')", {
        timeout: PAGE_WAIT_MS,
      });
      await other.waitForFunction("location.hash === '#/'", undefined, { timeout: PAGE_WAIT_MS });
      await waitForCount(other, "nav.sidebar button.thread", 1);
      await other.screenshot({ path: `${shots}/deleted-notice.png` });
      await other.close();
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: a thread with a running Run cannot be deleted and the dialog says why",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      // 10 s of answer: on a loaded machine a 2 s Run could end before the dialog is read.
      await startMessage(page, "very slow essay");
      await page.waitForSelector("form.composer button:text('Stop')", { timeout: PAGE_WAIT_MS });
      await openDeleteDialog(page);
      // One query sees the reason and the disabled button together (no gap for the Run to end).
      await page.waitForSelector(
        "dialog.delete-dialog:has([role=alert]:has-text('Stop it first')) button.delete-confirm:disabled",
        { timeout: PAGE_WAIT_MS },
      );
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.delete-dialog", { state: "detached" });
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: an archived thread is deleted from the Archived threads dialog",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      const { thread } = await client.call("thread.create", { title: "Old and done" });
      await client.call("thread.create", { title: "Archived but kept" }).then(({ thread: kept }) =>
        client.call("thread.archive", { threadId: kept.id })
      );
      await client.call("thread.archive", { threadId: thread.id });
      await logIn(run);
      await page.click("nav.sidebar button.archived-threads");
      await waitForCount(page, "dialog.archived-dialog li", 2);
      const shot = await Deno.makeTempFile({ prefix: "daedalus_archived_", suffix: ".png" });
      await page.screenshot({ path: shot });
      console.log(`screenshot: ${shot}`);
      await page.click(
        "dialog.archived-dialog li:has-text('Old and done') button:has-text('Delete…')",
      );
      await page.waitForSelector("dialog.delete-dialog[open]", { timeout: PAGE_WAIT_MS });
      assert.equal(
        await page.textContent("dialog.delete-dialog h2"),
        "Delete “Old and done”?",
        "the archived thread's title, though the sidebar does not list it",
      );
      await page.click("dialog.delete-dialog button.delete-confirm");
      await page.waitForSelector("dialog.delete-dialog", { state: "detached" });
      await waitForCount(page, "dialog.archived-dialog li", 1);
      assert.equal(
        await page.textContent("dialog.archived-dialog li .title"),
        "Archived but kept",
      );
      const { threads } = await client.call("thread.list", { archived: true });
      assert.deepEqual(threads.map((t) => t.title), ["Archived but kept"]);
      assert.deepEqual(run.pageErrors, []);
    }),
});

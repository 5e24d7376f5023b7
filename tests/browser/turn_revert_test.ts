/**
 * Browser test of "Undo file changes" against a real `daedalus serve` in Debian's Chromium:
 * a turn writes a file, the user edits it by hand, the dialog (a dry run) lists the file as
 * changed since, and "Revert anyway" restores the turn's before-state. Skipped when
 * Chromium is not installed. Screenshots go to BROWSER_SCREENSHOTS_DIR when set.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import {
  hasChromium,
  logIn,
  openToolRow,
  PAGE_WAIT_MS,
  startMessage,
  waitForAnswer,
  waitForText,
  waitForTextContaining,
  withBrowser,
} from "./_browser.ts";

Deno.test({
  name: "browser: Undo file changes shows a conflict and Revert anyway restores the file",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await startMessage(page, "write: notes.txt from the turn");
      await waitForAnswer(page, "Wrote it.");
      const { threads } = await client.call("thread.list", { limit: 1 });
      const root = threads[0]?.workspace?.rootUri;
      assert.ok(root, "the thread has a workspace");
      const file = `${root.replace(/\/$/, "")}/notes.txt`;
      await Deno.writeTextFile(file, "edited by hand\n");

      await openToolRow(page, "write");
      await page.click("section.tool-card button.revert-button");
      await page.waitForSelector("dialog.revert-dialog[open] li[data-outcome=conflict]", {
        timeout: PAGE_WAIT_MS,
      });
      await waitForTextContaining(
        page,
        "dialog.revert-dialog [role=alert]",
        "changed since this turn",
      );
      const shots = Deno.env.get("BROWSER_SCREENSHOTS_DIR");
      if (shots) await page.screenshot({ path: `${shots}/revert-conflict.png` });
      assert.equal(
        await page.locator("dialog.revert-dialog button:text('Undo file changes')").count(),
        0,
        "with a conflict only Revert anyway is offered",
      );
      await page.click("dialog.revert-dialog button:text('Revert anyway')");
      await waitForText(page, "dialog.revert-dialog [role=status]", "The files were restored.");
      if (shots) await page.screenshot({ path: `${shots}/revert-done.png` });
      const exists = await Deno.lstat(file).then(() => true, () => false);
      assert.equal(exists, false, "the file the turn created is removed, the hand edit too");
    }),
});

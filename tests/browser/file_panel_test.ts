/**
 * Browser test of the file panel against a real `daedalus serve` in Debian's Chromium:
 * a write's card opens the file's preview; a file longer than one page (2,000 lines)
 * is read page by page; a file that changes between pages is reported with a reload
 * instead of mixing two versions. Skipped when Chromium is not installed.
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
  waitForCount,
  waitForText,
  withBrowser,
} from "./_browser.ts";

function lines(count: number, prefix: string): string {
  return Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join("\n") + "\n";
}

Deno.test({
  name: "browser: the file panel pages a long file and reports a change between pages",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await startMessage(page, "write: long.txt first version");
      await waitForAnswer(page, "Wrote it.");

      // The thread's workspace on disk, from the runtime itself.
      const client = createHttpClient({ url: run.server.url, token: run.token });
      const { threads } = await client.call("thread.list", { limit: 1 });
      const root = threads[0]?.workspace?.rootUri;
      assert.ok(root, "the thread has a workspace");
      // `rootUri` is a plain path today; a file: URL would be accepted too.
      const dir = root.startsWith("file:") ? new URL(root).pathname : root;
      const file = `${dir.replace(/\/$/, "")}/long.txt`;
      await Deno.writeTextFile(file, lines(2_500, "line"));

      await openToolRow(page, "write");
      await page.click("section.tool-card button.open-file-button");
      await page.waitForSelector("dialog.file-panel[open] table.file-lines", {
        timeout: PAGE_WAIT_MS,
      });
      const countRows = "document.querySelectorAll('dialog.file-panel tr').length";
      assert.equal(await page.evaluate<number>(countRows), 2_000);
      assert.match(await page.textContent("dialog.file-panel .file-range") ?? "", /1–2000/);
      await page.click("dialog.file-panel button:text('Show more lines')");
      await waitForCount(page, "dialog.file-panel tr", 2_500);
      assert.match(await page.textContent("dialog.file-panel footer") ?? "", /End of file/);
      assert.equal(
        await page.textContent("dialog.file-panel tr:last-child td:last-child"),
        "line 2500",
      );

      // Close, change the file, reopen: the first page is of the new revision.
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.file-panel", { state: "detached" });
      await openToolRow(page, "write");
      await page.click("section.tool-card button.open-file-button");
      await waitForCount(page, "dialog.file-panel tr", 2_000);
      // The file changes before the next page is asked for.
      await Deno.writeTextFile(file, lines(2_600, "changed"));
      await page.click("dialog.file-panel button:text('Show more lines')");
      await page.waitForSelector("dialog.file-panel .file-unavailable", {
        timeout: PAGE_WAIT_MS,
      });
      assert.match(
        await page.textContent("dialog.file-panel .file-unavailable") ?? "",
        /changed since this view was opened/,
      );
      // The shown lines stay the old version's; nothing of the new one is mixed in.
      assert.equal(await page.evaluate<number>(countRows), 2_000);
      assert.equal(
        await page.textContent("dialog.file-panel tr:last-child td:last-child"),
        "line 2000",
      );
      await page.click("dialog.file-panel button:text('Reload from the start')");
      await waitForText(page, "dialog.file-panel tr td:last-child", "changed 1");

      // An unavailable reason is explained: the file is gone.
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.file-panel", { state: "detached" });
      await Deno.remove(file);
      await openToolRow(page, "write");
      await page.click("section.tool-card button.open-file-button");
      await page.waitForSelector("dialog.file-panel .file-unavailable", {
        timeout: PAGE_WAIT_MS,
      });
      assert.match(
        await page.textContent("dialog.file-panel .file-unavailable") ?? "",
        /does not exist/,
      );
      // "Mention in message" puts the path into the draft and returns to the composer.
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.file-panel", { state: "detached" });
      await page.fill("form.composer textarea", "please check");
      await openToolRow(page, "write");
      await page.click("section.tool-card button.open-file-button");
      await page.click("dialog.file-panel button.mention-file");
      await page.waitForSelector("dialog.file-panel", { state: "detached" });
      // The composer takes the changed draft on its next render.
      await page.waitForFunction(
        "document.querySelector('form.composer textarea')?.value === 'please check `long.txt` '",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      assert.equal(
        await page.evaluate<boolean>(
          "document.activeElement === document.querySelector('form.composer textarea')",
        ),
        true,
      );
      assert.deepEqual(run.pageErrors, []);
    }),
});

/**
 * Browser test of Export in the thread menu against a real `daedalus serve`: Export as
 * Markdown downloads the transcript under a name made from the title, Export as JSON the
 * JSON lines segment that verifies. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { verifyExportedSegment } from "@daedalus/storage";
import { hasChromium, logIn, PAGE_WAIT_MS, sendMessage, withBrowser } from "./_browser.ts";
import type { Page } from "playwright-core";

/** Clicks a menu item of the thread menu and returns the download it starts. */
async function exportVia(page: Page, item: string): Promise<{ name: string; text: string }> {
  await page.click("button.thread-menu");
  await page.waitForSelector("[role=menu]", { timeout: PAGE_WAIT_MS });
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: PAGE_WAIT_MS }),
    page.click(`[role=menuitem]:text-is("${item}")`),
  ]);
  const failure = await download.failure();
  assert.equal(failure, null, `the download of ${item} failed`);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await Deno.readTextFile(path) };
}

Deno.test({
  name: "browser: Export as Markdown and as JSON download the thread from its menu",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await sendMessage(page, "Weekly report: 写周报", "Answer to: Weekly report: 写周报");
      // An untitled thread's file is named by its id; a titled one by its title.
      const untitled = await exportVia(page, "Export as Markdown");
      assert.match(untitled.name, /^thread_[0-9a-f]{32}\.md$/);
      await page.click("button.thread-menu");
      await page.click('[role=menuitem]:text-is("Rename")');
      await page.fill("input.rename", "Weekly report: 写周报 / v2?");
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        "document.querySelector('.conversation-header h1')?.textContent === 'Weekly report: 写周报 / v2?'",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );

      const markdown = await exportVia(page, "Export as Markdown");
      assert.equal(markdown.name, "Weekly-report-写周报-v2.md", "named from the title, safely");
      assert.match(
        markdown.text,
        /^# Weekly report: 写周报 \/ v2\?\n\nThread `thread_[0-9a-f]{32}`/,
      );
      assert.match(markdown.text, /### You · .*\n\nWeekly report: 写周报\n/);
      assert.match(markdown.text, /### Assistant · .*\n\nAnswer to: Weekly report: 写周报\n/);
      assert.match(markdown.text, /Last event: seq \d+, hash `[0-9a-f]{64}`\.\n$/);
      // The menu closed and gave the focus back to its button.
      await page.waitForSelector("[role=menu]", { state: "detached" });

      const jsonl = await exportVia(page, "Export as JSON");
      assert.ok(jsonl.name.endsWith(".jsonl"), jsonl.name);
      const verified = verifyExportedSegment(jsonl.text);
      assert.equal(
        verified.ok,
        true,
        `the downloaded segment must verify: ${verified.failure?.message}`,
      );
      assert.ok(verified.events >= 4, `the thread's events, got ${verified.events}`);
      assert.deepEqual(run.pageErrors, []);
    }),
});

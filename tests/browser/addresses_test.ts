/**
 * Threads have addresses (`#/t/<threadId>`) and the start screen has a composer: the first
 * message makes the thread, reload and back/forward land where they should, a link opens
 * its thread in a new tab, the tab title is the thread's title, and a link to a thread
 * that does not exist comes back to the start screen saying so. Skipped when Chromium is
 * not installed.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  waitConnected,
  waitForAnswer,
  withBrowser,
} from "./_browser.ts";

const THREAD_HASH = /^#\/t\/(thread_[0-9a-f]{32})$/;

async function threadCount(page: Page): Promise<number> {
  return await page.$$eval("nav.sidebar button.thread", (buttons) => buttons.length);
}

async function openThreadId(page: Page): Promise<string> {
  const hash = await page.evaluate<string>("location.hash");
  const match = THREAD_HASH.exec(hash);
  assert.ok(match, `the address names the open thread: ${hash}`);
  return match[1];
}

async function sendFromStartScreen(page: Page, text: string): Promise<string> {
  await page.waitForFunction(
    "document.activeElement === document.querySelector('form.composer textarea')",
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
  await page.waitForFunction(
    "document.querySelector('form.composer select')?.value.startsWith('scripted/') === true",
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
  await waitForAnswer(page, `Answer to: ${text}`);
  return await openThreadId(page);
}

Deno.test({
  name:
    "browser: the start screen's first message makes the thread; reload, back/forward and a new tab land on its address",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page, context } = run;
      await logIn(run);
      assert.equal(await threadCount(page), 0);
      // The start screen: a composer with the focus, and no thread until a message is sent.
      const first = await sendFromStartScreen(page, "first question");
      assert.equal(await threadCount(page), 1, "the message made exactly one thread");

      await page.click("nav.sidebar button.new-thread");
      await page.waitForFunction("location.hash === '#/'", undefined, { timeout: PAGE_WAIT_MS });
      assert.equal(await threadCount(page), 1, "New thread alone makes no thread");
      const second = await sendFromStartScreen(page, "second question");
      assert.notEqual(second, first);
      assert.equal(await threadCount(page), 2);

      // The thread made from the start screen took its place in the history: Back is the
      // first thread, Forward the second again.
      await page.goBack();
      await waitForAnswer(page, "Answer to: first question");
      assert.equal(await openThreadId(page), first);
      await page.goForward();
      await waitForAnswer(page, "Answer to: second question");
      assert.equal(await openThreadId(page), second);

      // The tab title is the thread's title (renamed here: the scripted model makes none).
      await page.click("button.thread-menu");
      await page.click("[role=menu] >> text=Rename");
      await page.fill("input.rename", "Second thread");
      await page.keyboard.press("Enter");
      await page.waitForFunction("document.title === 'Second thread · Daedalus'", undefined, {
        timeout: PAGE_WAIT_MS,
      });

      // A reload on the address returns to that thread.
      await page.reload();
      await waitConnected(page);
      await waitForAnswer(page, "Answer to: second question");
      assert.equal(await openThreadId(page), second);
      assert.equal(await page.title(), "Second thread · Daedalus");

      // The first thread's link in a new tab opens it there.
      const tab = await context.newPage();
      await tab.goto(`${run.server.url}/#/t/${first}`);
      await waitForAnswer(tab, "Answer to: first question");
      assert.equal(await tab.title(), "Untitled thread · Daedalus");
      await tab.close();

      // A link to a thread that does not exist: the start screen, and why.
      await page.goto(`${run.server.url}/#/t/thread_${"0".repeat(32)}`);
      await page.waitForSelector("[role=alert]:has-text('This thread no longer exists.')", {
        timeout: PAGE_WAIT_MS,
      });
      await page.waitForFunction("location.hash === '#/'", undefined, { timeout: PAGE_WAIT_MS });
      assert.equal(await page.title(), "Daedalus");
      assert.deepEqual(run.pageErrors, []);
    }),
});

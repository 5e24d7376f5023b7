/**
 * Browser test of message search (Ctrl/Cmd+K) against a real `daedalus serve` with the
 * scripted model: a word said in an old turn of another thread — older than the first
 * page of turns the feed loads — is found with its match marked; Enter opens that thread
 * with that turn in view and its message focused. Screenshots of the dialog in light and
 * dark go to a temp dir (printed). Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient, type HttpClient } from "@daedalus/client";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  waitForCount,
  waitForTextContaining,
  withBrowser,
} from "./_browser.ts";

/** Turns in the searched thread: more than the feed's first page (50), so it must page. */
const OLD_THREAD_TURNS = 55;

/** Starts a turn and waits until it has settled; returns its id. */
async function settledTurn(client: HttpClient, threadId: string, content: string) {
  const { turnId } = await client.call("turn.start", {
    threadId,
    content,
    providerId: "scripted",
    modelId: "scripted-model",
    executionPolicy: "full_access",
  });
  const deadline = Date.now() + PAGE_WAIT_MS;
  while (Date.now() < deadline) {
    const { turns } = await client.call("turn.list", { threadId, direction: "backward", limit: 1 });
    if (turns[0]?.id === turnId && turns[0].status === "completed") return turnId;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`turn "${content}" did not settle`);
}

Deno.test({
  name: "browser: message-text search opens the right turn",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      const { thread: old } = await client.call("thread.create", { title: "Island travel" });
      const target = await settledTurn(client, old.id, "book the zanzibar ferry for friday");
      for (let i = 2; i <= OLD_THREAD_TURNS; i++) {
        await settledTurn(client, old.id, `packing list item ${i}`);
      }
      const { thread: recent } = await client.call("thread.create", { title: "Groceries" });
      await settledTurn(client, recent.id, "buy oat milk");

      await logIn(run);
      await page.click("nav.sidebar button.thread:has-text('Groceries')");
      await page.keyboard.press("Control+k");
      await page.waitForSelector("dialog.search-dialog[open] input", { timeout: PAGE_WAIT_MS });
      await page.keyboard.type("Zanzibar");
      await page.waitForSelector("dialog.search-dialog li.message-hit", { timeout: PAGE_WAIT_MS });
      const hits = await page.$$eval(
        "dialog.search-dialog li.message-hit",
        (items) =>
          items.map((item) => ({
            marks: [...item.querySelectorAll("mark")].map((mark) => mark.textContent),
            snippet: item.querySelector(".hit-snippet")?.textContent,
            thread: item.querySelector(".hit-thread")?.textContent,
            selected: item.getAttribute("aria-selected"),
          })),
      );
      assert.equal(hits.length, 2, JSON.stringify(hits));
      for (const hit of hits) {
        assert.deepEqual(hit.marks, ["zanzibar"], "the match is marked, in the message's case");
        assert.equal(hit.thread, "Island travel");
        assert.ok(hit.snippet?.includes("book the zanzibar ferry for friday"), hit.snippet);
      }
      assert.equal(hits[0]?.selected, "true", "the first result is active");
      assert.equal(await page.$("dialog.search-dialog .search-status"), null, "no status left");

      const shots = await Deno.makeTempDir({ prefix: "daedalus_search_shots_" });
      await page.screenshot({ path: `${shots}/search-light.png` });
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: `${shots}/search-dark.png` });
      await page.emulateMedia({ colorScheme: "light" });
      console.log(`screenshots: ${shots}`);

      // The user's message is the one to open (the answer repeats it after "Answer to:").
      const userIndex = await page.$$eval(
        "dialog.search-dialog li.message-hit",
        (items) =>
          items.findIndex((item) =>
            item.querySelector(".hit-snippet")?.textContent?.startsWith("book")
          ),
      );
      assert.ok(userIndex >= 0);
      for (let i = 0; i < userIndex; i++) await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await page.waitForSelector("dialog.search-dialog", { state: "detached" });
      await waitForTextContaining(
        page,
        "nav.sidebar button.thread[aria-current=page]",
        "Island travel",
      );
      // Turn 1 is on the second page of turns: it is loaded, scrolled into view, focused.
      await page.waitForFunction(
        `(() => {
          const row = document.querySelector(${JSON.stringify(`.feed-row[data-turn="${target}"]`)});
          const scroller = document.querySelector(".feed-scroller");
          if (!row || !scroller) return false;
          const r = row.getBoundingClientRect();
          const s = scroller.getBoundingClientRect();
          return r.top >= s.top - 1 && r.top < s.bottom && r.bottom > s.top;
        })()`,
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      const focused = await page.evaluate(`(() => {
        const active = document.activeElement;
        return { turn: active?.dataset?.turn ?? null, text: active?.textContent ?? "" };
      })()`) as { turn: string | null; text: string };
      assert.equal(focused.turn, target, "the opened message has focus");
      assert.ok(focused.text.includes("book the zanzibar ferry"), focused.text);
      await page.screenshot({ path: `${shots}/opened-turn.png` });

      // On a phone the dialog and its results fit the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.keyboard.press("Control+k");
      await page.waitForSelector("dialog.search-dialog[open] input", { timeout: PAGE_WAIT_MS });
      await page.keyboard.type("zanzibar");
      await page.waitForSelector("dialog.search-dialog li.message-hit", { timeout: PAGE_WAIT_MS });
      const box = await page.$eval("dialog.search-dialog", (dialog) => {
        const r = dialog.getBoundingClientRect();
        return { left: r.left, right: r.right, scroll: dialog.scrollWidth - dialog.clientWidth };
      });
      assert.ok(box.left >= 0 && box.right <= 390, `dialog off screen: ${JSON.stringify(box)}`);
      assert.equal(box.scroll, 0, "nothing in the dialog overflows sideways");
      await page.screenshot({ path: `${shots}/search-phone.png` });
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.search-dialog", { state: "detached" });

      // Nothing said: "No threads or messages match."; Escape closes.
      await page.keyboard.press("Control+k");
      await page.waitForSelector("dialog.search-dialog[open] input", { timeout: PAGE_WAIT_MS });
      await page.keyboard.type("qwertyuiop");
      await waitForTextContaining(page, "dialog.search-dialog .search-status", "match");
      // Many matches: the last option shows the next page, from the keyboard too.
      await page.fill("dialog.search-dialog input", "packing list");
      await waitForCount(page, "dialog.search-dialog li.message-hit", 20);
      await page.keyboard.press("End");
      assert.equal(
        await page.$eval("dialog.search-dialog li.active", (item) => item.textContent),
        "Show more messages",
      );
      await page.keyboard.press("Enter");
      await waitForCount(page, "dialog.search-dialog li.message-hit", 40);
      assert.equal(
        await page.$eval("dialog.search-dialog li.active", (item) => item.className),
        "message-hit active",
        "the first result of the new page is active",
      );
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.search-dialog", { state: "detached" });
      assert.deepEqual(run.pageErrors, []);
    }),
});

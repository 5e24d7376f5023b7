/**
 * Browser test of the virtualized conversation feed against a real `daedalus serve`: a
 * thread of 480 items written into state.db before the start renders only a window of
 * articles, scrolling to the top pages in older turns without moving what is on screen,
 * the turn navigator jumps with the keyboard, and "Jump to latest" appears when the user
 * scrolls up while a Run streams; at 390 px the navigator is a toggled overlay that
 * Escape and a jump close. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { writeLongThread } from "../fixtures/long_thread.ts";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  waitForAnswer,
  waitForCount,
  waitForText,
  withBrowser,
} from "./_browser.ts";

const TURNS = 120;
const ITEMS_PER_TURN = 4;
/** Each turn's items, then the usage line under its finished answer. */
const ROWS_PER_TURN = ITEMS_PER_TURN + 1;
/** `openThread` and `loadOlderTurns` ask for 50 turns a page. */
const PAGE_TURNS = 50;

const SCROLLER = "section.feed-scroller";

/**
 * Scrolls the feed (unless `scrollTop` is null), lets it render and measure (two
 * frames), and returns the row at the top of its viewport: its key and px below the
 * scroller's top.
 */
function scrollAndSettle(
  page: Page,
  scrollTop: number | null,
): Promise<{ key: string; offset: number }> {
  return page.evaluate(`(async () => {
    const scroller = document.querySelector(${JSON.stringify(SCROLLER)});
    if (${scrollTop} !== null) scroller.scrollTop = ${scrollTop};
    for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    const top = scroller.getBoundingClientRect().top;
    const row = [...scroller.querySelectorAll('.feed-row')]
      .find((r) => r.getBoundingClientRect().bottom > top + 1);
    return {
      key: row.dataset.key,
      offset: row.getBoundingClientRect().top - top,
    };
  })()`);
}

/** Px from the scroller's top to a row's top, or null when it is not rendered. */
function rowOffset(page: Page, key: string): Promise<number | null> {
  return page.evaluate(`(() => {
    const scroller = document.querySelector(${JSON.stringify(SCROLLER)});
    const row = document.querySelector('[data-key=${JSON.stringify(key)}]');
    if (!row) return null;
    return row.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
  })()`);
}

/** The last rendered article: its position, the set's size and its text. */
function lastRow(page: Page): Promise<{ position: string; size: string; text: string }> {
  return page.evaluate(`(() => {
    const row = [...document.querySelectorAll('[role=feed] > [role=article]')].at(-1);
    return {
      position: row?.getAttribute('aria-posinset') ?? '',
      size: row?.getAttribute('aria-setsize') ?? '',
      text: row?.textContent ?? '',
    };
  })()`);
}

function renderedRows(page: Page): Promise<number> {
  return page.evaluate("document.querySelectorAll('[role=feed] > [role=article]').length");
}

function atBottom(page: Page): Promise<boolean> {
  return page.evaluate(`(() => {
    const s = document.querySelector(${JSON.stringify(SCROLLER)});
    return s.scrollTop + s.clientHeight >= s.scrollHeight - 30;
  })()`);
}

Deno.test({
  name: "browser: the feed windows a long thread, pages older turns in place, navigates turns",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(
      async (run) => {
        const { page } = run;
        await logIn(run);
        await page.click("nav.sidebar button.thread:has-text('Long thread')");
        await page.waitForSelector("[role=feed] > [role=article]", { timeout: PAGE_WAIT_MS });

        // The newest page: 50 turns × 5 rows, the end of the thread at the bottom.
        const newest = PAGE_TURNS * ROWS_PER_TURN;
        await page.waitForFunction(
          `[...document.querySelectorAll('[role=feed] > [role=article]')].at(-1)` +
            `?.getAttribute('aria-posinset') === '${newest}'`,
          undefined,
          { timeout: PAGE_WAIT_MS },
        );
        const last = await lastRow(page);
        assert.equal(last.size, "-1", "the size is unknown while older turns are not loaded");
        assert.ok(await atBottom(page), "a thread opens at its latest item");
        const rendered = await renderedRows(page);
        assert.ok(rendered > 3 && rendered < 80, `${rendered} of ${newest} rows are in the DOM`);
        assert.match(last.text, /scripted-model/, "the last row is the answer's usage line");
        const lastAnswer = await page.evaluate<string>(
          "[...document.querySelectorAll('article.message.role-assistant')].at(-1)?.textContent ?? ''",
        );
        assert.match(lastAnswer, new RegExp(`Turn ${TURNS}, step 3`));

        // Scroll to the top: the previous page is prepended and the row on screen stays.
        // Then the last page through the Load earlier button (clicked without scrolling).
        for (const [how, loadedTurns] of [["scroll", 2 * PAGE_TURNS], ["button", TURNS]] as const) {
          const before = await scrollAndSettle(page, how === "scroll" ? 0 : 700);
          if (how === "button") {
            await page.evaluate("document.querySelector('button.load-older').click()");
          }
          // the navigator lists every loaded turn
          await waitForCount(page, "nav.turn-nav [role=option]", loadedTurns);
          await scrollAndSettle(page, null);
          const after = await rowOffset(page, before.key);
          assert.ok(
            after !== null && Math.abs(after - before.offset) < 2,
            `${how}: the row at the top moved from ${before.offset} to ${after} px`,
          );
        }
        assert.equal(await page.$("button.load-older"), null, "every turn is loaded");
        assert.equal(
          await page.getAttribute("[role=feed] > [role=article]", "aria-setsize"),
          String(TURNS * ROWS_PER_TURN),
        );
        assert.ok((await renderedRows(page)) < 80, "still only a window of rows");

        // The navigator: Home + Enter jumps to the first turn, Alt+ArrowDown to the next.
        const listbox = "nav.turn-nav [role=listbox]";
        await page.focus(listbox);
        await page.keyboard.press("Home");
        assert.equal(
          await page.getAttribute(listbox, "aria-activedescendant"),
          await page.getAttribute(`${listbox} [role=option]:first-child`, "id"),
        );
        await page.keyboard.press("ArrowDown");
        await page.keyboard.press("ArrowUp");
        await page.keyboard.press("Enter");
        // each jump waits for its focus, so the next starts from the turn it reached
        const focusedTurn = (question: string) =>
          page.waitForFunction(
            "document.activeElement?.closest('.feed-row')" +
              `?.querySelector('.role-user')?.textContent.endsWith(${JSON.stringify(question)})`,
            undefined,
            { timeout: PAGE_WAIT_MS },
          );
        await focusedTurn("Question 1");
        const jumped = await page.evaluate<string>("document.activeElement.dataset.key");
        await scrollAndSettle(page, null);
        const jumpedOffset = await rowOffset(page, jumped);
        assert.ok(
          jumpedOffset !== null && Math.abs(jumpedOffset) < 2,
          `the turn starts at the top of the feed (${jumpedOffset} px)`,
        );
        await page.keyboard.press("Alt+ArrowDown");
        await focusedTurn("Question 2");
        await page.keyboard.press("Alt+ArrowDown");
        await focusedTurn("Question 3");
        await page.keyboard.press("Alt+ArrowUp");
        await focusedTurn("Question 2");
        // the navigator's active option follows the keyboard steps
        await waitForText(page, `${listbox} [aria-selected=true]`, "2Question 2");

        // Scrolled up in a settled thread there is no Jump to latest (nothing streams).
        assert.equal(await page.$("button.jump-latest"), null, "no Jump to latest while idle");
        // Back at the bottom, a streaming Run is followed until the user scrolls up.
        await scrollAndSettle(page, 1e9);
        assert.ok(await atBottom(page));
        await page.fill("form.composer textarea", "slow tool feed");
        await page.click("form.composer button[type=submit]");
        await waitForAnswer(page, "chunk3");
        assert.ok(await atBottom(page), "the feed follows the streaming answer");
        await page.hover(SCROLLER);
        await page.mouse.wheel(0, -1500);
        const jump = await page.waitForSelector("button.jump-latest:has-text('new')", {
          timeout: PAGE_WAIT_MS,
        });
        assert.match(await jump.textContent() ?? "", /Jump to latest \(\d+ new\)/);
        assert.equal(await atBottom(page), false, "the feed stays where the user scrolled");
        await jump.click();
        await page.waitForSelector("button.jump-latest", { state: "detached" });
        await waitForAnswer(page, "Tool said: echo: slow tool feed");
        await page.waitForFunction(
          `(() => { const s = document.querySelector(${JSON.stringify(SCROLLER)});` +
            " return s.scrollTop + s.clientHeight >= s.scrollHeight - 30; })()",
          undefined,
          { timeout: PAGE_WAIT_MS },
        );
        assert.deepEqual(run.pageErrors, []);
      },
      { width: 1280, height: 800 },
      {
        beforeStart: async (home) => {
          await writeLongThread(home.home, home.workspacesRoot, {
            title: "Long thread",
            turns: TURNS,
            itemsPerTurn: ITEMS_PER_TURN,
          });
        },
      },
    ),
});

Deno.test({
  name: "browser: at 390 px the turn navigator is a toggle; Enter jumps and closes it",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(
      async (run) => {
        const { page } = run;
        await logIn(run);
        // at 390 px the threads are in the drawer the header's menu button opens
        await page.click("button.drawer-open");
        await page.click("nav.sidebar button.thread:has-text('Short thread')");
        const toggle = "nav.turn-nav button.turn-nav-toggle";
        const listbox = "nav.turn-nav [role=listbox]";
        await page.waitForSelector(toggle, { timeout: PAGE_WAIT_MS });
        assert.equal(await page.textContent(toggle), "Turns (10)");
        assert.equal(await page.isVisible(listbox), false, "the list starts closed");

        await page.click(toggle);
        await page.waitForSelector(listbox, { state: "visible", timeout: PAGE_WAIT_MS });
        await page.focus(listbox);
        await page.keyboard.press("Escape");
        await page.waitForSelector(listbox, { state: "hidden", timeout: PAGE_WAIT_MS });
        assert.equal(
          await page.evaluate("document.activeElement?.classList.contains('turn-nav-toggle')"),
          true,
          "Escape returns focus to the toggle",
        );

        await page.keyboard.press("Enter");
        await page.waitForSelector(listbox, { state: "visible", timeout: PAGE_WAIT_MS });
        await page.focus(listbox);
        await page.keyboard.press("Home");
        await page.keyboard.press("Enter");
        await page.waitForSelector(listbox, { state: "hidden", timeout: PAGE_WAIT_MS });
        await page.waitForFunction(
          "document.activeElement?.closest('.feed-row')" +
            "?.querySelector('.role-user')?.textContent.endsWith('Question 1')",
          undefined,
          { timeout: PAGE_WAIT_MS },
        );
        assert.equal(await page.getAttribute(toggle, "aria-expanded"), "false");
        assert.deepEqual(run.pageErrors, []);
      },
      { width: 390, height: 844 },
      {
        beforeStart: async (home) => {
          await writeLongThread(home.home, home.workspacesRoot, {
            title: "Short thread",
            turns: 10,
            itemsPerTurn: ITEMS_PER_TURN,
          });
        },
      },
    ),
});

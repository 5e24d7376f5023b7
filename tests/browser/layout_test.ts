/**
 * Browser tests of the PWA's layout against a real `daedalus serve` in Debian's
 * Chromium: the reading column keeps its width beside a long first prompt and under the
 * file panel (1440×900), the phone drawer opens and closes by its button, Escape, the
 * scrim and a swipe with the focus following, nothing overlaps at 390×844 and 360×740
 * (element bounding boxes), sending while scrolled up lands on the new message, and
 * "Jump to latest" shows only while a Run streams. The screenshots of the layout (start
 * screen, a thread with tool activity, settings, the drawer; 1440×900 and 390×844, light
 * and dark) go to LAYOUT_SCREENSHOTS_DIR when set (`app/screenshots/` is made so), else a
 * temp directory. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { writeLongThread } from "../fixtures/long_thread.ts";
import { SHOWCASE_TITLE, writeShowcaseThread } from "../fixtures/showcase_thread.ts";
import {
  hasChromium,
  logIn,
  openToolRow,
  PAGE_WAIT_MS,
  waitForAnswer,
  withBrowser,
} from "./_browser.ts";

const ignore = !hasChromium;
const wait = { timeout: PAGE_WAIT_MS };
const SCROLLER = "section.feed-scroller";

/** A box in CSS px, as `getBoundingClientRect` gives it. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The box of the first element `selector` matches, or null when none is rendered. */
function boxOf(page: Page, selector: string): Promise<Box | null> {
  return page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return r.width === 0 && r.height === 0 ? null : { x: r.x, y: r.y, width: r.width, height: r.height };
  })()`);
}

/** Whether two boxes share more than a hairline (1 px) of area. */
function overlap(a: Box, b: Box): boolean {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 1 && h > 1;
}

function describe(name: string, box: Box): string {
  return `${name} [${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${
    Math.round(box.height)
  }]`;
}

/**
 * The visible controls and text at this size, by role: the header row's controls, the
 * composer, the floating buttons, and the feed's text blocks that are on screen (clipped
 * to the feed's viewport: what scrolled out is not covered by anything).
 */
function layoutBoxes(page: Page): Promise<{
  viewport: { width: number; height: number };
  scrollWidth: number;
  header: [string, Box][];
  composer: Box | null;
  floating: [string, Box][];
  text: [string, Box][];
}> {
  return page.evaluate(`(() => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    const named = (selector) => [...document.querySelectorAll(selector)]
      .filter(visible).map((el) => [selector, box(el)]);
    const header = [
      '.drawer-open', '.phone-title', '.conversation-header h1', '.conversation-header .model-label',
      '.thread-menu', '.phone-new-thread',
    ].flatMap(named);
    const scroller = document.querySelector(${JSON.stringify(SCROLLER)});
    const frame = scroller?.getBoundingClientRect();
    const text = [];
    if (frame) {
      for (const el of scroller.querySelectorAll(
        // a code block's text is its code: the pre's content box (any line may be as long
        // as the block is wide), not the frame its Copy button sits in
        '.message .text, .markdown > :not(.code-block), .markdown pre, ' +
          '.tool-row-line, .tool-group-line, .tool-row-error, .run-usage, .run-progress, .run-outcome',
      )) {
        if (!visible(el)) continue;
        let r = el.getBoundingClientRect();
        if (el.tagName === 'PRE') {
          const cs = getComputedStyle(el);
          const px = (v) => parseFloat(v) || 0;
          const left = r.left + px(cs.borderLeftWidth) + px(cs.paddingLeft);
          const right = r.right - px(cs.borderRightWidth) - px(cs.paddingRight);
          const t = r.top + px(cs.borderTopWidth) + px(cs.paddingTop);
          const b = r.bottom - px(cs.borderBottomWidth) - px(cs.paddingBottom);
          r = { left, right, top: t, bottom: b, x: left, width: right - left };
        }
        const top = Math.max(r.top, frame.top), bottom = Math.min(r.bottom, frame.bottom);
        if (bottom - top <= 1) continue;
        text.push([el.className || el.tagName, { x: r.x, y: top, width: r.width, height: bottom - top }]);
      }
    }
    const composer = document.querySelector('form.composer');
    return {
      viewport: { width: innerWidth, height: innerHeight },
      scrollWidth: document.documentElement.scrollWidth,
      header,
      composer: composer && visible(composer) ? box(composer) : null,
      // the floating buttons on screen (a code block's Copy may have scrolled away)
      floating: ['.turn-nav-toggle', '.jump-latest', '.code-block .copy-code'].flatMap(named)
        .filter(([, b]) => b.y + b.height > 0 && b.y < innerHeight),
      text,
    };
  })()`);
}

/**
 * Asserts that at this size nothing overlaps: the header's controls with each other and
 * with the composer, the floating buttons with the feed's text and the composer, and that
 * everything fits the viewport's width.
 */
async function assertNothingOverlaps(page: Page, where: string): Promise<void> {
  const layout = await layoutBoxes(page);
  const { width, height } = layout.viewport;
  assert.ok(
    layout.scrollWidth <= width,
    `${where}: the page scrolls sideways (${layout.scrollWidth} > ${width} px)`,
  );
  assert.ok(layout.composer, `${where}: no composer on screen`);
  const floatingOnScreen = layout.floating.filter(([name]) => !name.includes("copy-code"));
  const all: [string, Box][] = [
    ...layout.header,
    ...floatingOnScreen,
    ["composer", layout.composer],
  ];
  for (const [name, box] of all) {
    assert.ok(
      box.x >= -0.5 && box.x + box.width <= width + 0.5 && box.y >= -0.5 &&
        box.y + box.height <= height + 0.5,
      `${where}: ${describe(name, box)} is not inside the ${width}×${height} viewport`,
    );
  }
  for (let i = 0; i < layout.header.length; i++) {
    const [a, boxA] = layout.header[i]!;
    for (const [b, boxB] of layout.header.slice(i + 1)) {
      assert.ok(
        !overlap(boxA, boxB),
        `${where}: ${describe(a, boxA)} overlaps ${describe(b, boxB)}`,
      );
    }
    assert.ok(
      !overlap(boxA, layout.composer),
      `${where}: ${describe(a, boxA)} overlaps the composer`,
    );
  }
  assert.ok(layout.text.length > 0, `${where}: no text of the feed on screen to check`);
  for (const [name, box] of [...layout.floating, ...layout.header]) {
    for (const [text, textBox] of layout.text) {
      assert.ok(
        !overlap(box, textBox),
        `${where}: ${describe(name, box)} covers the feed's ${describe(text, textBox)}`,
      );
    }
  }
  for (const [text, textBox] of layout.text) {
    assert.ok(
      !overlap(layout.composer, textBox),
      `${where}: the composer covers the feed's ${describe(text, textBox)}`,
    );
  }
}

/**
 * Asserts that every tool line (rows and step headers) fits the reading column: its box
 * inside the feed's, and nothing inside it wider than the line (the target is cut by
 * its ellipsis instead).
 */
async function assertToolRowsFit(page: Page, where: string): Promise<void> {
  const lines = await page.evaluate<
    { name: string; text: string; left: number; right: number; overflow: number }[]
  >(`(() => {
    const feed = document.querySelector(${
    JSON.stringify(SCROLLER)
  } + ' > .feed').getBoundingClientRect();
    return [...document.querySelectorAll('.tool-row-line, .tool-group-line, .tool-row-error')]
      .map((el) => {
        const r = el.getBoundingClientRect();
        return {
          name: el.className,
          text: el.textContent.slice(0, 60),
          left: r.left - feed.left,
          right: feed.right - r.right,
          overflow: el.scrollWidth - el.clientWidth,
        };
      });
  })()`);
  assert.ok(lines.length > 0, `${where}: no tool lines to check`);
  for (const line of lines) {
    assert.ok(
      line.left >= -0.5 && line.right >= -0.5 && line.overflow <= 1,
      `${where}: the ${line.name} "${line.text}" does not fit the column ` +
        `(${line.left.toFixed(1)} px left, ${line.right.toFixed(1)} px right, ` +
        `${line.overflow} px overflow)`,
    );
  }
}

/** Lets the app render and measure (two frames). */
function frames(page: Page): Promise<void> {
  return page.evaluate(
    "(async () => { for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r)); })()",
  );
}

/** Whether the drawer is on screen: its box inside the viewport and it is not inert. */
function drawerShown(page: Page): Promise<boolean> {
  return page.evaluate(`(() => {
    const nav = document.querySelector('nav.sidebar');
    const r = nav.getBoundingClientRect();
    return !nav.inert && getComputedStyle(nav).visibility === 'visible' && r.left >= -1 && r.right > 0;
  })()`);
}

async function waitDrawer(page: Page, shown: boolean): Promise<void> {
  await page.waitForFunction(
    `(() => {
      const nav = document.querySelector('nav.sidebar');
      const r = nav.getBoundingClientRect();
      const on = !nav.inert && getComputedStyle(nav).visibility === 'visible' && r.left >= -1;
      // closed: off screen (the slide finished) and out of reach
      const off = nav.inert && r.right <= 0.5;
      return ${shown} ? on : off;
    })()`,
    undefined,
    wait,
  );
}

function focused(page: Page): Promise<string> {
  return page.evaluate(
    "document.activeElement ? document.activeElement.className || document.activeElement.tagName : ''",
  );
}

/** Sends `text` from the composer of the open thread and waits for the user's message. */
async function sendHere(page: Page, text: string): Promise<void> {
  await page.fill("form.composer textarea", text);
  await page.press("form.composer textarea", "Enter");
  await page.waitForFunction(
    `[...document.querySelectorAll('article.message.role-user')].some((a) => a.textContent.includes(${
      JSON.stringify(text)
    }))`,
    undefined,
    wait,
  );
}

Deno.test({
  name:
    "browser layout: at 1440×900 a very long first prompt and the file panel leave the column's width",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await page.click("nav.sidebar button.new-thread");
      await page.waitForSelector("form.composer textarea", wait);
      const long = `write: notes.txt ${"a very long first prompt that goes on ".repeat(30)}` +
        "x".repeat(400);
      await page.fill("form.composer textarea", long);
      await page.click("form.composer button[type=submit]");
      await waitForAnswer(page, "Wrote it.");
      await page.waitForSelector("nav.turn-nav [role=option]", wait);
      // the write's row open, so its Open file button is on the page
      await openToolRow(page, "write");
      await frames(page);

      const rail = await boxOf(page, "nav.turn-nav");
      const feed = await boxOf(page, `${SCROLLER} > .feed`);
      const composer = await boxOf(page, "form.composer .composer-box");
      assert.ok(rail && feed && composer, "the rail, the feed and the composer are shown");
      // 14rem: the rail keeps its width whatever its entries say
      assert.ok(Math.abs(rail.width - 224) <= 1, `the rail is ${rail.width} px wide, not 224`);
      // 48rem: the column's full width, not squeezed by the rail
      assert.ok(Math.abs(feed.width - 768) <= 1, `the reading column is ${feed.width} px, not 768`);
      assert.ok(feed.x + feed.width <= rail.x, "the column ends before the rail");
      assert.ok(
        Math.abs(composer.x - feed.x) <= 2 && Math.abs(composer.width - feed.width) <= 2,
        `the composer (${describe("composer", composer)}) lines up with the column ` +
          describe("feed", feed),
      );
      const label = await page.evaluate<{ clipped: boolean; wraps: boolean }>(`(() => {
        const label = document.querySelector('nav.turn-nav [role=option] .turn-label');
        return { clipped: label.scrollWidth > label.clientWidth, wraps: label.getClientRects().length > 1 };
      })()`);
      assert.deepEqual(
        label,
        { clipped: true, wraps: false },
        "the long entry is cut by its ellipsis",
      );

      // The file panel opens over the conversation: the column stays where it was.
      await page.click(".tool-card button:has-text('Open file')");
      await page.waitForSelector("dialog.file-panel[open]", wait);
      await frames(page);
      assert.deepEqual(await boxOf(page, `${SCROLLER} > .feed`), feed, "the column moved");
      const title = await page.evaluate<{ oneLine: boolean; fits: boolean }>(`(() => {
        const h2 = document.querySelector('dialog.file-panel > header h2');
        const header = h2.parentElement.getBoundingClientRect();
        return { oneLine: h2.getBoundingClientRect().height < 40, fits: h2.getBoundingClientRect().right <= header.right };
      })()`);
      assert.deepEqual(title, { oneLine: true, fits: true }, "the file title is one line");
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.file-panel[open]", { ...wait, state: "detached" });

      // The rail collapses to a strip and the column, still 48rem, recentres; remembered.
      await page.click("nav.turn-nav .turn-rail-toggle");
      await page.waitForSelector("nav.turn-nav.rail-collapsed", wait);
      await frames(page);
      const strip = await boxOf(page, "nav.turn-nav");
      assert.ok(strip && strip.width <= 40, `the collapsed rail is ${strip?.width} px wide`);
      assert.equal(await page.isVisible("nav.turn-nav [role=listbox]"), false);
      const wider = await boxOf(page, `${SCROLLER} > .feed`);
      assert.ok(wider && Math.abs(wider.width - 768) <= 1, "the column keeps its width");
      await page.reload();
      await page.waitForSelector("nav.turn-nav.rail-collapsed", wait);
      await page.click("nav.turn-nav .turn-rail-toggle");
      await page.waitForSelector("nav.turn-nav:not(.rail-collapsed) [role=listbox]", wait);
      assert.deepEqual(run.pageErrors, []);
    }, { width: 1440, height: 900 }),
});

/** Dispatches a touch swipe on the drawer from (x0, y) to (x1, y). */
function swipe(page: Page, x0: number, x1: number, y: number): Promise<void> {
  return page.evaluate(`(() => {
    const nav = document.querySelector('nav.sidebar');
    const touch = (x) => new Touch({ identifier: 1, target: nav, clientX: x, clientY: ${y} });
    const start = touch(${x0}), end = touch(${x1});
    nav.dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: [start], changedTouches: [start] }));
    nav.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [end] }));
  })()`);
}

Deno.test({
  name: "browser layout: at 390×844 and 360×740 the sidebar is a drawer and nothing overlaps",
  ignore,
  fn: () =>
    withBrowser(
      async (run) => {
        const { page } = run;
        await logIn(run);
        // The start screen: the drawer is closed and out of reach, the header has the
        // menu button and New thread.
        await waitDrawer(page, false);
        assert.ok(await page.isVisible(".phone-new-thread"), "New thread is in the header");
        const menu = await boxOf(page, ".drawer-open");
        assert.ok(menu && menu.width >= 36 && menu.height >= 36, "the menu button is finger-sized");

        // The menu button opens it and the focus moves in; Escape closes it, focus back.
        await page.click(".drawer-open");
        await waitDrawer(page, true);
        assert.equal(await page.getAttribute(".drawer-open", "aria-expanded"), "true");
        assert.match(await focused(page), /new-thread/, "the focus moves into the drawer");
        const drawer = await boxOf(page, "nav.sidebar");
        assert.ok(drawer && drawer.x >= 0 && drawer.width <= 390 - 48, "a strip of page stays");
        assert.equal(
          await page.evaluate("document.querySelector('main.main').inert"),
          true,
          "the page behind the open drawer is out of reach",
        );
        await page.keyboard.press("Escape");
        await waitDrawer(page, false);
        assert.match(
          await focused(page),
          /drawer-open/,
          "Escape returns the focus to the menu button",
        );

        // A tap on the scrim, the close button, a swipe to the left close it too.
        await page.click(".drawer-open");
        await waitDrawer(page, true);
        await page.mouse.click(380, 400);
        await waitDrawer(page, false);
        await page.click(".drawer-open");
        await waitDrawer(page, true);
        await page.click("nav.sidebar .sidebar-toggle");
        await waitDrawer(page, false);
        await page.click(".drawer-open");
        await waitDrawer(page, true);
        await swipe(page, 200, 190, 300); // a small move is no swipe
        await frames(page);
        assert.ok(await drawerShown(page), "a 10 px move does not close the drawer");
        await swipe(page, 250, 60, 310);
        await waitDrawer(page, false);

        // A thread chosen in the drawer opens and the drawer gets out of the way.
        await page.click(".drawer-open");
        await waitDrawer(page, true);
        await page.click(`nav.sidebar button.thread:has-text(${JSON.stringify(SHOWCASE_TITLE)})`);
        await waitDrawer(page, false);
        await page.waitForSelector(`${SCROLLER} .tool-group`, wait);
        assert.match(await focused(page), /drawer-open/, "the focus is back on the menu button");
        assert.ok(await page.isVisible(".phone-new-thread"), "New thread stays in the header");
        await frames(page);
        await assertNothingOverlaps(page, "390×844, a thread at its end");
        await page.evaluate(`document.querySelector(${JSON.stringify(SCROLLER)}).scrollTop = 0`);
        await frames(page);
        await assertNothingOverlaps(page, "390×844, a thread at its start");
        await assertToolRowsFit(page, "390×844, a thread's tool activity");
        await page.click("nav.turn-nav .turn-nav-toggle");
        await page.waitForSelector("nav.turn-nav [role=listbox]", { ...wait, state: "visible" });
        await page.keyboard.press("Escape");

        await page.setViewportSize({ width: 360, height: 740 });
        await frames(page);
        await assertNothingOverlaps(page, "360×740, a thread");
        await page.evaluate(`document.querySelector(${JSON.stringify(SCROLLER)}).scrollTop = 0`);
        await frames(page);
        await assertToolRowsFit(page, "360×740, a thread's tool activity");
        await page.click(".drawer-open");
        await waitDrawer(page, true);
        const narrow = await boxOf(page, "nav.sidebar");
        assert.ok(narrow && narrow.x + narrow.width <= 360 - 48, "the drawer fits 360 px");
        await page.keyboard.press("Escape");
        await waitDrawer(page, false);

        // New thread from the header: the start screen's composer, then a thread.
        await page.click(".phone-new-thread");
        await page.waitForSelector("form.composer textarea", wait);
        await sendHere(page, "tool phone");
        await waitForAnswer(page, "Tool said: echo: tool phone");
        await frames(page);
        assert.equal(
          await page.isVisible("nav.turn-nav"),
          false,
          "one turn: no Turns bar above the feed",
        );
        await assertNothingOverlaps(page, "360×740, a new thread with a tool call");

        // The file preview of a long path: its title one line, Close on screen.
        const path = "src/components/navigation/drawer/ResponsiveNavigationDrawer.tsx";
        await sendHere(page, `write: ${path} hello`);
        await waitForAnswer(page, "Wrote it.");
        await openToolRow(page, "write");
        await page.click(".tool-card button:has-text('Open file')");
        await page.waitForSelector("dialog.file-panel[open]", wait);
        const preview = await page.evaluate<{ lines: number; closeRight: number; title: string }>(
          `(() => {
            const h2 = document.querySelector('dialog.file-panel > header h2');
            const lineHeight = parseFloat(getComputedStyle(h2).lineHeight) || 24;
            const close = h2.parentElement.querySelector('button').getBoundingClientRect();
            return {
              lines: Math.round(h2.getBoundingClientRect().height / lineHeight),
              closeRight: close.right,
              title: h2.querySelector('code')?.title ?? '',
            };
          })()`,
        );
        assert.equal(preview.lines, 1, "the file title is one line, cut by an ellipsis");
        assert.ok(preview.closeRight <= 360, `Close ends at ${preview.closeRight} px, off screen`);
        assert.equal(preview.title, path, "the full path is the title's tooltip");
        await page.keyboard.press("Escape");
        await page.waitForSelector("dialog.file-panel[open]", { ...wait, state: "detached" });

        // Wider again, the sidebar is a column and never inert.
        await page.setViewportSize({ width: 1024, height: 740 });
        await page.waitForFunction(
          "!document.querySelector('nav.sidebar').inert && !document.querySelector('nav.sidebar.drawer')",
          undefined,
          wait,
        );
        assert.equal(
          await page.isVisible(".drawer-open"),
          false,
          "no menu button on a wide screen",
        );
        assert.deepEqual(run.pageErrors, []);
      },
      { width: 390, height: 844 },
      { beforeStart: (home) => writeShowcaseThread(home.home, home.workspacesRoot).then(() => {}) },
    ),
});

/** Whether the newest user message that includes `text` is entirely inside the feed's viewport. */
function userMessageInView(page: Page, text: string): Promise<boolean> {
  return page.evaluate(`(() => {
    const frame = document.querySelector(${JSON.stringify(SCROLLER)}).getBoundingClientRect();
    const message = [...document.querySelectorAll('article.message.role-user')]
      .findLast((a) => a.textContent.includes(${JSON.stringify(text)}));
    if (!message) return false;
    const r = message.getBoundingClientRect();
    return r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
  })()`);
}

function atBottom(page: Page): Promise<boolean> {
  return page.evaluate(`(() => {
    const s = document.querySelector(${JSON.stringify(SCROLLER)});
    return s.scrollTop + s.clientHeight >= s.scrollHeight - 30;
  })()`);
}

Deno.test({
  name:
    "browser layout: sending while scrolled up lands on the message; Jump to latest only mid-stream",
  ignore,
  fn: () =>
    withBrowser(
      async (run) => {
        const { page } = run;
        await logIn(run);
        await page.click("nav.sidebar button.thread:has-text('Scroll thread')");
        await page.waitForSelector("[role=feed] > [role=article]", wait);
        await page.hover(SCROLLER);
        await page.mouse.wheel(0, -100_000);
        await page.waitForFunction(
          `document.querySelector(${JSON.stringify(SCROLLER)}).scrollTop === 0`,
          undefined,
          wait,
        );
        await frames(page);
        assert.equal(
          await page.$("button.jump-latest"),
          null,
          "no Jump to latest in a settled thread",
        );

        // Sent from up there: the feed takes the user to their message, then its answer.
        await sendHere(page, "hello from the top");
        await page.waitForFunction(
          `(() => {
            const frame = document.querySelector(${
            JSON.stringify(SCROLLER)
          }).getBoundingClientRect();
            const m = [...document.querySelectorAll('article.message.role-user')]
              .findLast((a) => a.textContent.includes('hello from the top'));
            const r = m?.getBoundingClientRect();
            return r && r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
          })()`,
          undefined,
          wait,
        );
        await waitForAnswer(page, "Answer to: hello from the top");
        await frames(page);
        assert.ok(await userMessageInView(page, "hello from the top"), "the message stays in view");
        assert.ok(await atBottom(page), "the feed followed the answer to the bottom");
        assert.equal(await page.$("button.jump-latest"), null, "following: no Jump to latest");

        // Mid-stream, scrolling away offers Jump to latest; it brings the user back.
        await sendHere(page, "slow stream please");
        await waitForAnswer(page, "chunk2");
        assert.ok(await atBottom(page), "the feed follows the streaming answer");
        await page.hover(SCROLLER);
        await page.mouse.wheel(0, -1500);
        const jump = await page.waitForSelector("button.jump-latest", wait);
        assert.equal(await atBottom(page), false, "the feed stays where the user scrolled");
        await jump.click();
        await page.waitForSelector("button.jump-latest", { ...wait, state: "detached" });
        await waitForAnswer(page, "chunk19");
        await frames(page);
        assert.ok(await atBottom(page), "back to following the answer");
        assert.deepEqual(run.pageErrors, []);
      },
      { width: 1280, height: 800 },
      {
        beforeStart: async (home) => {
          await writeLongThread(home.home, home.workspacesRoot, {
            title: "Scroll thread",
            turns: 10,
            itemsPerTurn: 4,
          });
        },
      },
    ),
});

/** The layout screenshots: each scene at each size, light and dark. */
const SHOT_SIZES = [[1440, 900], [390, 844]] as const;

Deno.test({
  name: "browser layout: screenshots of the start screen, a thread, settings and the drawer",
  ignore,
  fn: async () => {
    const dir = Deno.env.get("LAYOUT_SCREENSHOTS_DIR") ??
      await Deno.makeTempDir({ prefix: "daedalus_layout_shots_" });
    await Deno.mkdir(dir, { recursive: true });
    const shots: string[] = [];
    await withBrowser(
      async (run) => {
        const { page } = run;
        await logIn(run);
        const shoot = async (name: string) => {
          await frames(page);
          const path = `${dir}/${name}.png`;
          await page.screenshot({ path });
          const { size } = await Deno.stat(path);
          assert.ok(size > 5000, `${path} is only ${size} bytes`);
          shots.push(path);
        };
        for (const theme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
          for (const [width, height] of SHOT_SIZES) {
            await page.setViewportSize({ width, height });
            const phone = width <= 700;
            const size = `${width}x${height}-${theme}`;
            // Let the layout switch (drawer ⇄ sidebar) settle first: a click aimed while it
            // moves can land on the sidebar's collapse button, which sits where the
            // drawer's close button was.
            await page.waitForSelector(phone ? "nav.sidebar.drawer" : "nav.sidebar:not(.drawer)", {
              ...wait,
              state: "attached",
            });
            await frames(page);
            await page.click(phone ? ".phone-new-thread" : "nav.sidebar button.new-thread");
            await page.waitForSelector("form.composer textarea", wait);
            await shoot(`start-${size}`);

            if (phone) {
              await page.click(".drawer-open");
              await waitDrawer(page, true);
              await shoot(`drawer-${size}`);
            }
            await page.click(
              `nav.sidebar button.thread:has-text(${JSON.stringify(SHOWCASE_TITLE)})`,
            );
            await waitDrawer(page, !phone);
            await page.waitForSelector(`${SCROLLER} .tool-group`, wait);
            await page.waitForFunction(
              `(() => { const s = document.querySelector(${JSON.stringify(SCROLLER)});` +
                " return s.scrollTop + s.clientHeight >= s.scrollHeight - 2; })()",
            );
            await shoot(`thread-${size}`);
            // The thread's tool activity: a step of three calls (one failed), then a command.
            await page.evaluate(
              "document.querySelector('.feed-row .tool-group').closest('.feed-row')" +
                ".scrollIntoView({ block: 'start' })",
            );
            await shoot(`tools-${size}`);

            await page.keyboard.press("Control+,");
            await page.waitForSelector("dialog.settings[open]", wait);
            await shoot(`settings-${size}`);
            await page.keyboard.press("Escape");
            await page.waitForSelector("dialog.settings[open]", { ...wait, state: "detached" });
          }
        }
      },
      { width: 1440, height: 900 },
      { beforeStart: (home) => writeShowcaseThread(home.home, home.workspacesRoot).then(() => {}) },
    );
    assert.equal(shots.length, 18, `screenshots taken: ${shots.join(", ")}`);
    console.log(`layout screenshots: ${dir}`);
  },
});

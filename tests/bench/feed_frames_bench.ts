/**
 * Frame times of the conversation feed in headless Chromium: a thread of 10,000 items
 * (written into state.db before the runtime starts, then loaded by the app through the
 * real `turn.list`, every page), while a 300-delta answer streams in (10 ms apart) —
 * first followed at the bottom, then while the feed is scrolled up through the history.
 * Frames are timed in the page with requestAnimationFrame. The same run with every row
 * rendered (`DAEDALUS_FEED_OVERSCAN_PX`, no virtualization) is the baseline.
 *
 * `deno task bench` runs it (never `deno task test`); skipped without Chromium. The
 * numbers are printed; app/README.md ("Feed frame times") records a run.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { writeLongThread } from "../fixtures/long_thread.ts";
import { hasChromium, logIn, withBrowser } from "../browser/_browser.ts";

const TURNS = 200;
const ITEMS_PER_TURN = 50;
const ITEMS = TURNS * ITEMS_PER_TURN;
/** How long a frame may take before it counts as a visible stall. */
const JANK_FRAME_MS = 50;
/** Long enough for the whole history: one turn.list page per 50 turns, sequentially. */
const LOAD_WAIT_MS = 300_000;

/** The frame-time summary of one run. */
interface FrameStats {
  frames: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  over50: number;
}

function summarize(frames: readonly number[]): FrameStats {
  const sorted = [...frames].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    frames: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: sorted.at(-1)!,
    over50: sorted.filter((ms) => ms > JANK_FRAME_MS).length,
  };
}

/** Opens the thread and pages in every turn with the Load earlier button. */
async function loadWholeThread(page: Page): Promise<void> {
  await page.click("nav.sidebar button.thread:has-text('Bench thread')");
  await page.waitForSelector("[role=feed] > [role=article]");
  await page.waitForFunction(
    `(() => {
      const more = document.querySelector('button.load-older');
      if (more && !more.disabled) more.click();
      return document.querySelectorAll('nav.turn-nav [role=option]').length === ${TURNS};
    })()`,
    undefined,
    { timeout: LOAD_WAIT_MS, polling: 100 },
  );
  // back to the bottom, following it
  await page.evaluate(
    "(() => { const s = document.querySelector('section.feed-scroller');" +
      " s.scrollTop = s.scrollHeight; })()",
  );
}

/**
 * Streams the answer while timing frames: the first half followed at the bottom, the
 * second half scrolling up 120 px a frame.
 */
async function measureStream(page: Page): Promise<FrameStats> {
  await page.evaluate(`(() => {
    const state = window.__feedBench = { frames: [], stop: false, scrolling: false };
    let last = performance.now();
    const tick = (now) => {
      state.frames.push(now - last);
      last = now;
      if (state.scrolling) document.querySelector('section.feed-scroller').scrollTop -= 120;
      if (!state.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  await page.fill("form.composer textarea", "stream for the frame benchmark");
  // a DOM click: with every row rendered, playwright's actionability checks time out
  await page.evaluate("document.querySelector('form.composer button[type=submit]').click()");
  await page.waitForFunction(
    "[...document.querySelectorAll('article.message.role-assistant')]" +
      ".some((a) => a.textContent.includes('word150'))",
    undefined,
    { timeout: LOAD_WAIT_MS },
  );
  await page.evaluate("window.__feedBench.scrolling = true");
  // the answer is done when the Run's progress row is gone (it streams off-screen now)
  await page.waitForFunction(
    "document.querySelector('form.composer button[type=submit]')?.textContent === 'Send'",
    undefined,
    { timeout: LOAD_WAIT_MS },
  );
  const frames = await page.evaluate<number[]>(
    "(() => { window.__feedBench.stop = true; return window.__feedBench.frames.slice(1); })()",
  );
  assert.ok(frames.length > 10, `only ${frames.length} frames were timed`);
  return summarize(frames);
}

async function run(virtualized: boolean): Promise<{ stats: FrameStats; rendered: number }> {
  let result: { stats: FrameStats; rendered: number } | null = null;
  await withBrowser(
    async (browser) => {
      const { page } = browser;
      if (!virtualized) {
        await page.addInitScript("globalThis.DAEDALUS_FEED_OVERSCAN_PX = 1e9");
      }
      await logIn(browser);
      await loadWholeThread(page);
      const rendered = await page.evaluate<number>(
        "document.querySelectorAll('[role=feed] > [role=article]').length",
      );
      result = { stats: await measureStream(page), rendered };
      assert.deepEqual(browser.pageErrors, []);
    },
    { width: 1280, height: 800 },
    {
      beforeStart: async (home) => {
        await writeLongThread(home.home, home.workspacesRoot, {
          title: "Bench thread",
          turns: TURNS,
          itemsPerTurn: ITEMS_PER_TURN,
        });
      },
    },
  );
  if (!result) throw new Error("the benchmark did not run");
  return result;
}

function row(label: string, r: { stats: FrameStats; rendered: number }): string {
  const s = r.stats;
  const ms = (n: number) => n.toFixed(1).padStart(7);
  return `${label.padEnd(16)} ${String(r.rendered).padStart(6)} ${String(s.frames).padStart(6)}` +
    `${ms(s.p50)}${ms(s.p95)}${ms(s.p99)}${ms(s.max)} ${String(s.over50).padStart(6)}`;
}

/**
 * Both runs, once: `deno bench` always calls a bench's function for a warmup and then,
 * finding it fast (the promise is settled), many more times; those calls return at once,
 * so the timing row it prints is meaningless — the frame times printed above it are the
 * result.
 */
let measured: Promise<void> | null = null;

async function measureBoth(): Promise<void> {
  const virtualized = await run(true);
  const baseline = await run(false);
  console.log(
    `\nFeed frame times, ${ITEMS} items, 300 deltas 10 ms apart, half followed, half ` +
      "scrolling 120 px/frame\n" +
      `${"".padEnd(16)} ${"rows".padStart(6)} ${"frames".padStart(6)}` +
      `${"p50".padStart(7)}${"p95".padStart(7)}${"p99".padStart(7)}${"max".padStart(7)}` +
      ` ${">50ms".padStart(6)}  (ms; rows = articles in the DOM)\n` +
      `${row("virtualized", virtualized)}\n${row("all rows", baseline)}\n` +
      `p95 ratio (all rows / virtualized): ` +
      `${(baseline.stats.p95 / virtualized.stats.p95).toFixed(1)}×\n`,
  );
}

Deno.bench({
  name: `feed: frame times with ${ITEMS} items while an answer streams (printed above)`,
  ignore: !hasChromium,
  fn: async () => {
    measured ??= measureBoth();
    await measured;
  },
});

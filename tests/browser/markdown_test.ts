/**
 * Browser tests of assistant Markdown against a real `daedalus serve` in Debian's
 * Chromium: GFM (a table, a task list, strikethrough, a footnote, autolinks) renders as
 * elements and raw HTML never does; a fenced code block gets its language label, syntax
 * highlighting (a lazily loaded chunk) and a Copy button in its header that copies
 * exactly its text; the answer's own Copy copies its Markdown source. Huge answers — a
 * 200,000-character single line and a 5 MiB answer — stream, show their start, then after
 * "Show all" are scrolled through from top to bottom (pieces on the page only near the
 * viewport), their long tasks printed (PerformanceObserver `longtask`; the bench holds them
 * to 200 ms: tests/bench/huge_answers_bench.ts); the long
 * line wraps inside the answer. Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  openNewThread,
  PAGE_WAIT_MS,
  waitControlled,
  waitForText,
  withBrowser,
} from "./_browser.ts";
import { HUGE_ANSWER_CHARS, hugeAnswer, hugeLine } from "../fixtures/huge_answers.ts";
import { splitPieces } from "../../app/src/ui/markdown/pieces.ts";
import { COLLAPSE_CHARS, PIECE_CHARS } from "../../app/src/ui/markdown/limits.ts";

/** Huge answers take a while to stream (80 chunks of 64 KiB, 20 ms apart). */
const HUGE_WAIT_MS = Number(Deno.env.get("HUGE_WAIT_MS") ?? 120_000);

const ANSWER = "article.message.role-assistant";

/** In page code: the latest answer on the page (the huge tests send a small one first). */
const LATEST = `[...document.querySelectorAll(${JSON.stringify(ANSWER)})].at(-1)`;

async function send(page: Page, text: string): Promise<void> {
  await page.fill("form.composer textarea", text);
  await page.click("form.composer button[type=submit]");
}

Deno.test({
  name: "browser: GFM renders as elements; a code block is labelled, highlighted and copyable",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page, context } = run;
      await context.grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: run.server.url,
      });
      await logIn(run);
      await openNewThread(page);
      // The scripted model answers "Answer to: <message>", so the message is the Markdown.
      const code = 'const tag: string = "<b>x</b>";\nconsole.log(tag);';
      const message = [
        "see",
        "",
        "| tool | uses |",
        "| :--- | ---: |",
        "| read | 12 |",
        "| ~~grep~~ | 3 |",
        "",
        "- [x] parsed",
        "- [ ] rendered",
        "",
        "Docs at www.example.com and a note[^1]. <b>raw</b>",
        "",
        "```ts",
        code,
        "```",
        "",
        "[^1]: The note.",
      ].join("\n");
      await send(page, message);
      await page.waitForSelector(`${ANSWER} .code-block code .hljs-keyword`, {
        timeout: PAGE_WAIT_MS,
      });
      const table = await page.$$eval(
        `${ANSWER} .markdown table tr`,
        (rows) => rows.map((r) => [...r.children].map((c) => `${c.tagName}:${c.textContent}`)),
      );
      assert.deepEqual(table, [["TH:tool", "TH:uses"], ["TD:read", "TD:12"], ["TD:grep", "TD:3"]]);
      assert.equal(await page.textContent(`${ANSWER} .markdown td del`), "grep");
      assert.equal(
        await page.getAttribute(`${ANSWER} .markdown td:nth-child(2)`, "class"),
        "md-align-right",
      );
      const tasks = await page.evaluate<string[]>(
        `[...document.querySelectorAll(${
          JSON.stringify(`${ANSWER} ul.contains-task-list > li.task-list-item`)
        })]` +
          ".map((li) => { const box = li.querySelector('input[type=checkbox]');" +
          " return `${box.checked ? 'x' : ' '} ${box.disabled} ${li.textContent.trim()}`; })",
      );
      assert.deepEqual(tasks, ["x true parsed", "  true rendered"]);
      assert.equal(
        await page.getAttribute(`${ANSWER} a[href="http://www.example.com/"]`, "rel"),
        "noopener noreferrer",
      );
      assert.equal(await page.textContent(`${ANSWER} .md-footnotes li`), "The note. ↩");
      assert.equal(await page.$(`${ANSWER} .markdown b`), null, "raw HTML stays text");
      // Following the footnote keeps the app's own address.
      const before = await page.evaluate<string>("location.hash");
      await page.click(`${ANSWER} sup.footnote-ref a`);
      assert.equal(await page.evaluate<string>("location.hash"), before);
      // The code block: label and Copy in a header bar above the code, which they never cover.
      assert.equal(await page.textContent(`${ANSWER} .code-block .code-lang`), "TypeScript");
      assert.equal(await page.textContent(`${ANSWER} .code-block code`), code);
      const head = await page.locator(`${ANSWER} .code-block .code-head`).boundingBox();
      const pre = await page.locator(`${ANSWER} .code-block pre`).boundingBox();
      assert.ok(head && pre && head.y + head.height <= pre.y + 0.5, "the header is above the code");
      await page.click(`${ANSWER} .copy-code`);
      await waitForText(page, `${ANSWER} .copy-code`, "Copied");
      assert.equal(await page.evaluate<string>("navigator.clipboard.readText()"), code);
      // The whole answer copies as its Markdown source.
      await page.click(`${ANSWER} .copy-answer`);
      await waitForText(page, `${ANSWER} .copy-answer`, "Copied");
      assert.equal(
        await page.evaluate<string>("navigator.clipboard.readText()"),
        `Answer to: ${message}`,
      );
      assert.deepEqual(run.pageErrors, []);
    }),
});

/**
 * Lets the app settle (the service worker installed and in control, the Markdown and
 * highlighting chunks loaded by a first small answer), so that what is measured next is
 * the huge answer and not the app's first start.
 */
async function settle(page: Page): Promise<void> {
  await waitControlled(page);
  await send(page, "warm up\n\n```ts\nconst a = 1;\n```");
  await page.waitForSelector(`${ANSWER} .code-block .hljs-keyword`, { timeout: PAGE_WAIT_MS });
}

/** Starts recording long tasks in the page. */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(Math.round(entry.duration));
    }).observe({ type: "longtask" });
  })()`);
}

async function longTasks(page: Page): Promise<number[]> {
  return await page.evaluate<number[]>("window.__longTasks.slice()");
}

/** Waits until the latest answer has completed (its Copy appears) and shows "Show all". */
async function waitForCollapsedAnswer(page: Page): Promise<void> {
  await page.waitForFunction(
    // The small first answer has Copy but no "Show all" (and may be scrolled out of the feed).
    `${LATEST}?.querySelector('.copy-answer') && ${LATEST}.querySelector('.md-show-all')`,
    undefined,
    { timeout: HUGE_WAIT_MS, polling: 250 },
  );
}

/** Clicks "Show all" and waits until the answer has one box per piece after its start. */
async function showAll(page: Page, text: string): Promise<number> {
  const pieces = splitPieces(text, { first: COLLAPSE_CHARS, rest: PIECE_CHARS }).pieces.length;
  await page.click(".md-show-all");
  await page.waitForFunction(
    `${LATEST}.querySelectorAll('.markdown > .md-piece').length === ${pieces - 1}` +
      ` && !${LATEST}.querySelector('.md-show-all')`,
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
  return pieces;
}

/**
 * Scrolls the feed through the whole answer, 1200 px a frame (pieces come onto the page
 * near the viewport and leave it far from it), then waits until the last piece is on the
 * page; returns the most pieces that were on the page at once.
 */
async function scrollThrough(page: Page): Promise<number> {
  let most = 0;
  for (let step = 0; step < 5_000; step++) {
    const state = await page.evaluate<{ atEnd: boolean; mounted: number }>(
      `(() => { const f = document.querySelector('.feed-scroller'); f.scrollTop += 1200;` +
        " const atEnd = f.scrollTop + f.clientHeight >= f.scrollHeight - 2;" +
        ` const mounted = ${LATEST}.querySelectorAll('.md-piece:not(.md-piece-away)').length;` +
        " return { atEnd, mounted }; })()",
    );
    most = Math.max(most, state.mounted);
    if (state.atEnd) break;
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
  await page.waitForFunction(
    `!${LATEST}.querySelector('.markdown > .md-piece:last-child')` +
      ".classList.contains('md-piece-away')",
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
  return most;
}

/**
 * Prints the long tasks of a scenario. Timings are not asserted in the test suite (the
 * machines are shared and noisy): `deno task bench` runs these scenarios again with
 * `DAEDALUS_LONG_TASK_BUDGET_MS` set (tests/bench/huge_answers_bench.ts), and only then a
 * task over the budget fails the run.
 */
function reportLongTasks(tasks: readonly number[], what: string) {
  const longest = Math.max(0, ...tasks);
  console.log(`${what}: ${tasks.length} long tasks, longest ${longest} ms`);
  const budget = Number(Deno.env.get("DAEDALUS_LONG_TASK_BUDGET_MS") ?? "NaN");
  if (Number.isFinite(budget)) {
    assert.ok(
      longest <= budget,
      `${what}: a task took ${longest} ms (all over 50 ms: ${tasks.join(", ")})`,
    );
  }
}

Deno.test({
  name: "browser: a 200,000-character single line streams, wraps, shows in full without long tasks",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await openNewThread(page);
      await settle(page);
      await watchLongTasks(page);
      await send(page, "huge line");
      await waitForCollapsedAnswer(page);
      const shown = await page.evaluate<number>(
        `${LATEST}.querySelector('.markdown').textContent.length`,
      );
      assert.ok(shown > 0 && shown <= COLLAPSE_CHARS, `the start of the line is shown: ${shown}`);
      const line = hugeLine();
      const pieces = await showAll(page, line);
      const most = await scrollThrough(page);
      assert.ok(most < pieces - 1, `not every piece was on the page at once: ${most}`);
      const end = await page.evaluate<string>(
        `${LATEST}.querySelector('.markdown > .md-piece:last-child').textContent`,
      );
      assert.ok(end.length > 0 && line.endsWith(end), "the line's end is on the page");
      // It wraps inside the answer: nothing is wider than the message.
      const widths = await page.evaluate<{ scroll: number; client: number; feed: number }>(
        `(() => { const a = ${LATEST};` +
          " const f = document.querySelector('.feed-scroller');" +
          " return { scroll: a.scrollWidth, client: a.clientWidth," +
          " feed: f.scrollWidth - f.clientWidth }; })()",
      );
      assert.ok(widths.scroll <= widths.client + 1, `the line wraps: ${JSON.stringify(widths)}`);
      assert.ok(widths.feed <= 1, `the feed does not scroll sideways: ${JSON.stringify(widths)}`);
      reportLongTasks(await longTasks(page), "200,000-character line");
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: a 5 MiB answer streams and renders in full without long tasks",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const { text, sections } = hugeAnswer();
      await logIn(run);
      await openNewThread(page);
      await settle(page);
      await watchLongTasks(page);
      await send(page, "huge answer");
      await waitForCollapsedAnswer(page);
      const label = await page.textContent(".md-show-all");
      assert.match(label ?? "", /^Show all \(\d+(\.\d)? MB more\)$/, String(label));
      reportLongTasks(await longTasks(page), "5 MiB answer, streaming");
      const pieces = await showAll(page, text);
      const most = await scrollThrough(page);
      console.log(`5 MiB answer: ${pieces} pieces, at most ${most} on the page at once`);
      assert.ok(most <= 8, `only pieces near the viewport are on the page: ${most}`);
      // The last section's heading (the answer ends inside it) and highlighted code near it.
      const last = await page.evaluate<{ headings: string[]; tables: number; code: number }>(
        `(() => { const p = ${LATEST}.querySelector('.markdown > .md-piece:last-child');` +
          " return { headings: [...p.querySelectorAll('h2')].map((h) => h.textContent)," +
          " tables: p.querySelectorAll('table').length," +
          " code: p.querySelectorAll('.code-block .hljs-keyword').length }; })()",
      );
      assert.equal(last.headings.at(-1), `Section ${sections - 1}`, JSON.stringify(last));
      assert.ok(last.tables > 0 && last.code > 0, JSON.stringify(last));
      reportLongTasks(
        await longTasks(page),
        `5 MiB answer (${HUGE_ANSWER_CHARS} chars), shown in full`,
      );
      assert.deepEqual(run.pageErrors, []);
    }),
});

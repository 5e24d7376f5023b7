/**
 * First contentful paint of the PWA in headless Chromium: the first visit (nothing
 * cached) against reloads once the service worker holds the app shell (issue 16's
 * "first contentful paint of a cached reload" budget). Each reload waits until the app is
 * connected again, so the next one starts from a settled page.
 *
 * `deno task bench` runs it (never `deno task test`); skipped without Chromium. The
 * numbers are printed; app/README.md ("Budgets") records a run.
 */
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  waitConnected,
  waitControlled,
  withBrowser,
} from "../browser/_browser.ts";

const RELOADS = 15;

/** The page's first-contentful-paint time, ms after navigation start. */
async function firstContentfulPaint(page: Page): Promise<number> {
  await page.waitForFunction(
    "performance.getEntriesByName('first-contentful-paint').length > 0",
    undefined,
    { timeout: 30_000 },
  );
  return await page.evaluate<number>(
    "performance.getEntriesByName('first-contentful-paint')[0].startTime",
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

let measured: Promise<void> | null = null;

async function measure(): Promise<void> {
  await withBrowser(async (browser) => {
    const { page } = browser;
    await logIn(browser);
    const first = await firstContentfulPaint(page);
    await waitControlled(page);
    const cached: number[] = [];
    for (let i = 0; i < RELOADS; i++) {
      await page.reload();
      cached.push(await firstContentfulPaint(page));
      await waitConnected(page);
    }
    const sorted = [...cached].sort((a, b) => a - b);
    const p90 = sorted[Math.floor(0.9 * sorted.length)]!;
    console.log(
      `\nFirst contentful paint (ms): first visit ${first.toFixed(0)}; cached reload ` +
        `median ${median(cached).toFixed(0)}, p90 ${p90.toFixed(0)}, ` +
        `min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)} (${RELOADS} reloads); ` +
        `ratio first / cached median ${(first / median(cached)).toFixed(2)}×\n`,
    );
  }, { width: 1280, height: 800 });
}

Deno.bench({
  name: "pwa: first contentful paint, first visit and cached reloads (printed above)",
  ignore: !hasChromium,
  fn: async () => {
    measured ??= measure();
    await measured;
  },
});

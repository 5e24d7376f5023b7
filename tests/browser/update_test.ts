/**
 * Browser test of the update prompt against a real `daedalus serve` in Debian's
 * Chromium: the runtime serves a copy of the built app; once the page is controlled by
 * its service worker, the copy's `sw.js` changes (a new version is deployed). The new
 * worker installs and waits, the app shows the prompt, and "Reload to update" brings
 * the page under the new worker. Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import {
  ensureAppBuilt,
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  waitControlled,
  withBrowser,
} from "./_browser.ts";
import { REPO_ROOT } from "../e2e/_harness.ts";

async function copyTree(from: string, to: string): Promise<void> {
  for await (const entry of Deno.readDir(from)) {
    const source = `${from}/${entry.name}`;
    const target = `${to}/${entry.name}`;
    if (entry.isDirectory) {
      await Deno.mkdir(target);
      await copyTree(source, target);
    } else {
      await Deno.copyFile(source, target);
    }
  }
}

Deno.test({
  name: "browser: a new service worker waits for the update prompt, then takes over",
  ignore: !hasChromium,
  fn: async () => {
    await ensureAppBuilt();
    const served = await Deno.makeTempDir({ prefix: "daedalus_app_copy_" });
    try {
      await copyTree(`${REPO_ROOT}app/dist`, served);
      await withBrowser(
        async (run) => {
          const { page } = run;
          await logIn(run);
          await waitControlled(page);
          assert.equal(await page.$(".banner-update"), null);

          // A new version: the worker script changes byte for byte.
          await Deno.writeTextFile(`${served}/sw.js`, `\n// v2 ${Date.now()}\n`, {
            append: true,
          });
          await page.reload();
          await page.waitForSelector(".banner-update", { timeout: PAGE_WAIT_MS });
          // Until accepted, the old worker keeps the page and the new one waits.
          assert.equal(
            await page.evaluate<boolean>(
              "navigator.serviceWorker.getRegistration().then((r) => r?.waiting !== null)",
            ),
            true,
          );

          await Promise.all([
            page.waitForEvent("load", { timeout: PAGE_WAIT_MS }),
            page.click(".banner-update button:text('Reload to update')"),
          ]);
          await page.waitForSelector("nav.sidebar", { timeout: PAGE_WAIT_MS });
          await page.waitForFunction(
            "navigator.serviceWorker.controller !== null && " +
              "navigator.serviceWorker.getRegistration().then((r) => r?.waiting === null)",
            undefined,
            { timeout: PAGE_WAIT_MS },
          );
          assert.equal(await page.$(".banner-update"), null);
          assert.deepEqual(run.pageErrors, []);
        },
        undefined,
        { env: { FIXTURE_STATIC_ROOT: served } },
      );
    } finally {
      await Deno.remove(served, { recursive: true });
    }
  },
});

/**
 * Browser test: opening a thread brings back the model it last ran with (seed 000 §5),
 * against a real `daedalus serve` in Debian's Chromium with two scripted models.
 * Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import { hasChromium, logIn, PAGE_WAIT_MS, waitForAnswer, withBrowser } from "./_browser.ts";

const wait = { timeout: PAGE_WAIT_MS };
const selected = "document.querySelector('form.composer select')?.value";

Deno.test({
  name: "browser: each thread reopens with the model it last used",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await createHttpClient({ url: run.server.url, token: run.token }).call(
        "provider.configure",
        {
          kind: "custom",
          providerId: "scripted",
          displayName: "Scripted",
          baseUrl: "http://127.0.0.1:9/v1",
          models: [
            { id: "scripted-model", displayName: "Scripted model" },
            { id: "scripted-vision", displayName: "Scripted vision" },
          ],
        },
      );
      await logIn(run);
      const sendWith = async (model: string, text: string) => {
        await page.click("nav.sidebar button.new-thread");
        await page.waitForFunction(`${selected}?.startsWith('scripted/')`, undefined, wait);
        await page.selectOption("form.composer select", model);
        await page.fill("form.composer textarea", text);
        await page.click("form.composer button[type=submit]");
        await waitForAnswer(page, `Answer to: ${text}`);
      };
      await sendWith("scripted/scripted-vision", "first thread");
      await sendWith("scripted/scripted-model", "second thread");

      // Both threads are untitled: the older one is listed second.
      await page.click("nav.sidebar button.thread >> nth=1");
      await page.waitForFunction(`${selected} === 'scripted/scripted-vision'`, undefined, wait);
      await page.click("nav.sidebar button.thread >> nth=0");
      await page.waitForFunction(`${selected} === 'scripted/scripted-model'`, undefined, wait);
      assert.deepEqual(run.pageErrors, []);
    }),
});

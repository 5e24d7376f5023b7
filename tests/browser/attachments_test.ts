/**
 * Browser tests of the composer's attachments and reasoning effort against a real
 * `daedalus serve` (the scripted fixture model) in Debian's Chromium: files pasted into
 * the composer are uploaded, shown as chips, sent with the message and reach the model;
 * a dropped file shows the drop state and its chip is removable by keyboard; a file over
 * 8 MiB is refused in the browser; the effort chosen in the model picker's
 * submenu reaches `turn.start` and is remembered. Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import { createHttpClient, type ModelInput } from "@daedalus/client";
import {
  type BrowserRun,
  hasChromium,
  logIn,
  openNewThread,
  PAGE_WAIT_MS,
  waitConnected,
  waitForAnswer,
  waitForCount,
  waitForText,
  withBrowser,
} from "./_browser.ts";

const ignore = !hasChromium;
const TEXT = "hello from a pasted file";
// A 1×1 PNG.
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** Lists the scripted models with the given settings (Runs still use the fixture's). */
async function listModels(run: BrowserRun, models: ModelInput[]): Promise<void> {
  const client = createHttpClient({ url: run.server.url, token: run.token });
  await client.call("provider.configure", {
    kind: "custom",
    providerId: "scripted",
    displayName: "Scripted",
    baseUrl: "http://127.0.0.1:9/v1",
    models,
  });
}

/** Pastes files into the composer the way a browser does: a paste event with files. */
function pasteScript(files: string): string {
  return `(() => {
    const data = new DataTransfer();
    for (const file of ${files}) data.items.add(file);
    document.querySelector("form.composer textarea").dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
    );
  })()`;
}

Deno.test({
  name: "browser: pasted files upload as chips, go with the message and reach the model",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await listModels(run, [
        { id: "scripted-model", displayName: "Scripted model" },
        { id: "scripted-vision", displayName: "Scripted vision" },
      ]);
      const uploads: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/upload") uploads.push(request.method());
      });
      await logIn(run);
      await openNewThread(run.page);
      await page.selectOption("form.composer select", "scripted/scripted-vision");

      // Over 8 MiB: refused with the limit message before any upload.
      await page.evaluate(pasteScript(
        `[new File([new Uint8Array(8 * 1024 * 1024 + 1)], "huge.log", { type: "text/plain" })]`,
      ));
      await page.waitForSelector("form.composer .attachment-notice", { timeout: PAGE_WAIT_MS });
      assert.match(
        await page.textContent("form.composer .attachment-notice") ?? "",
        /huge\.log is larger than 8 MB/,
      );
      assert.equal(await page.locator("form.composer .attachment-chip").count(), 0);

      // Dropping a file: the composer shows its drop state, then the chip; the chip's
      // remove button works from the keyboard.
      await page.evaluate(`(() => {
        const data = new DataTransfer();
        data.items.add(new File(["# dropped"], "dropped.md", { type: "text/markdown" }));
        const form = document.querySelector("form.composer");
        form.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      })()`);
      await page.waitForSelector("form.composer.dropping .drop-hint", { timeout: PAGE_WAIT_MS });
      await page.evaluate(`(() => {
        const data = new DataTransfer();
        data.items.add(new File(["# dropped"], "dropped.md", { type: "text/markdown" }));
        document.querySelector("form.composer").dispatchEvent(
          new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }),
        );
      })()`);
      await page.waitForSelector("form.composer .attachment-chip.state-ready", {
        timeout: PAGE_WAIT_MS,
      });
      assert.equal(await page.locator("form.composer.dropping").count(), 0, "drop state ends");
      await page.focus("button[aria-label='Remove dropped.md']");
      await page.keyboard.press("Enter");
      await page.waitForSelector("form.composer .attachment-chip", { state: "detached" });
      uploads.length = 0;

      await page.evaluate(pasteScript(`[
        new File([${JSON.stringify(TEXT)}], "notes.txt", { type: "text/plain" }),
        new File([Uint8Array.from(atob("${PNG_BASE64}"), (c) => c.charCodeAt(0))], "dot.png",
          { type: "image/png" }),
      ]`));
      await waitForCount(page, "form.composer .attachment-chip.state-ready", 2);
      const chips = await page.$$eval(
        "form.composer .attachment-chip",
        (items) => items.map((item) => item.textContent ?? ""),
      );
      assert.match(chips[0] ?? "", /notes\.txt.*24 B.*Ready/);
      assert.match(chips[1] ?? "", /dot\.png.*70 B.*Ready/);
      assert.deepEqual(uploads, ["POST", "POST"], "only the two accepted files were uploaded");
      // The remove buttons are labelled for keyboard and screen-reader users.
      assert.equal(await page.locator("button[aria-label='Remove dot.png']").count(), 1);

      await page.fill("form.composer textarea", "attachments? what did you get");
      await page.click("form.composer button[type=submit]");
      await waitForAnswer(page, `images: 1; text (text/plain, ${TEXT.length} bytes): ${TEXT}`);
      assert.equal(
        await page.locator("form.composer .attachment-chip").count(),
        0,
        "sent: cleared",
      );
      const shown = await page.$$eval(
        "article.message.role-user .message-attachment",
        (items) => items.map((item) => item.textContent ?? ""),
      );
      assert.deepEqual(shown, ["notes.txttext · 24 B", "dot.pngimage · 70 B"]);
      // The image has a thumbnail the runtime serves back (with the session cookie).
      await page.waitForFunction(
        "document.querySelector('article.message.role-user img.attachment-thumbnail')" +
          "?.naturalWidth === 1",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: the reasoning effort chosen by keyboard reaches turn.start and is remembered",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await listModels(run, [{
        id: "scripted-model",
        displayName: "Scripted model",
        reasoningEfforts: ["low", "medium", "high"],
        reasoningEffort: "medium",
      }]);
      await logIn(run);
      await openNewThread(run.page);
      const button = page.locator("form.composer .effort-button");
      assert.equal(await button.textContent(), "Effort: Medium", "the model's default");

      await button.focus();
      await page.keyboard.press("Enter");
      await page.waitForSelector("form.composer [role=menu]", { timeout: PAGE_WAIT_MS });
      const focused = () => page.evaluate<string>("document.activeElement?.textContent ?? ''");
      assert.equal(await focused(), "Medium", "the menu opens on the current choice");
      await page.keyboard.press("End");
      assert.equal(await focused(), "High");
      await page.keyboard.press("Home");
      assert.equal(await focused(), "Auto");
      await page.keyboard.press("Escape");
      await page.waitForSelector("form.composer [role=menu]", { state: "detached" });
      assert.equal(await focused(), "Effort: Medium", "Escape returns to the button");

      await page.keyboard.press("Enter");
      await page.waitForSelector("form.composer [role=menu]", { timeout: PAGE_WAIT_MS });
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await waitForText(page, "form.composer .effort-button", "Effort: High");
      await page.fill("form.composer textarea", "effort? first");
      await page.click("form.composer button[type=submit]");
      await waitForAnswer(page, "effort: high");

      await page.reload();
      await waitConnected(page);
      await page.click("nav.sidebar button.thread");
      await waitForText(page, "form.composer .effort-button", "Effort: High");
      await page.click("form.composer .effort-button");
      await page.click("form.composer [role=menuitemradio]:text('Auto')");
      await page.fill("form.composer textarea", "effort? again");
      await page.click("form.composer button[type=submit]");
      await waitForAnswer(page, "effort: auto");
      assert.deepEqual(run.pageErrors, []);
    }),
});

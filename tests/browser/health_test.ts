/**
 * Browser tests of issue 14's health pieces against a real `daedalus serve` (shipped
 * flags, the scripted model, headless Chromium):
 * - Settings › Health: no breaker at first (all healthy); a Run settling while the
 *   section is open lists the breakers it moved; four failed provider calls open the
 *   scripted provider's breaker, shown switched off with its failures and countdown,
 *   and the next Run fails fast with `provider_circuit_open`, whose outcome opens
 *   Settings › Health. A tool's breaker (the fixture's `flaky` tool, a 5 s open period)
 *   reads open with its countdown, then "testing again", then closed after a good probe.
 * - The fallback picker: a model's fallback is set in Settings › Providers and models
 *   and lands in config.yaml (`model.list`); a choice the runtime refuses
 *   (`model_fallback_invalid`) is explained beside the picker; a Run whose primary fails
 *   continues on the fallback and the feed says so, naming both models, also after a
 *   reload.
 * - A tool call waiting for its approval reads "waiting for approval" in its own card,
 *   and its real status once allowed.
 * Screenshots are saved. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  waitForAnswer,
  waitForTextContaining,
  withBrowser,
} from "./_browser.ts";

type HttpClient = ReturnType<typeof createHttpClient>;

const wait = { timeout: PAGE_WAIT_MS };
const HEALTH = "dialog.settings .health-section";

async function screenshotDir(): Promise<string> {
  const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
    await Deno.makeTempDir({ prefix: "daedalus_screenshots_" });
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

/** Runs `content` on the scripted model in `threadId` and waits until the Run settles. */
async function runToEnd(
  client: HttpClient,
  threadId: string,
  content: string,
): Promise<{ status: string; reasonCode: string | null }> {
  const { runId } = await client.call("turn.start", {
    threadId,
    content,
    providerId: "scripted",
    modelId: "scripted-model",
    executionPolicy: "full_access",
  });
  const deadline = Date.now() + PAGE_WAIT_MS;
  while (Date.now() < deadline) {
    const { turns } = await client.call("turn.list", { threadId });
    const run = turns.flatMap((turn) => turn.runs).find((r) => r.id === runId);
    if (run && run.settledAt !== null) return { status: run.status, reasonCode: run.reasonCode };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} (${content}) did not settle in ${PAGE_WAIT_MS} ms`);
}

async function openSettingsAt(page: Page, tab: string): Promise<void> {
  await page.keyboard.press("Control+,");
  await page.waitForSelector("dialog.settings[open]", wait);
  await page.click(`#settings-tab-${tab}`);
}

Deno.test({
  name: "browser: Settings › Health lists the breakers and shows an open provider breaker",
  ignore: !hasChromium,
  fn: async () => {
    const dir = await screenshotDir();
    await withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await logIn(run);
      await openSettingsAt(page, "health");
      await waitForTextContaining(page, `${HEALTH} .health-summary`, "All tools and providers");
      await page.waitForSelector(`${HEALTH} .health-none`, wait);

      // A Run that settles while the section is open makes it list the breakers again.
      const { thread } = await client.call("thread.create", { title: "Breakers" });
      assert.equal((await runToEnd(client, thread.id, "tool hi")).status, "completed");
      await page.waitForSelector(`${HEALTH} tr[data-breaker="echo"][data-state=closed]`, wait);
      await page.waitForSelector(
        `${HEALTH} tr[data-breaker="provider:scripted"][data-state=closed]`,
        wait,
      );
      await waitForTextContaining(page, `${HEALTH} .health-summary`, "healthy");

      // "tool hi" made two good provider calls; two failures make 2 of the last 4, which
      // opens the breaker (≥ 50 % failures over at least 4 calls).
      for (let i = 0; i < 2; i++) {
        const settled = await runToEnd(client, thread.id, "fail: server the service is down");
        assert.equal(settled.reasonCode, "provider_server", `failed run ${i + 1}`);
      }
      const row = `${HEALTH} tr[data-breaker="provider:scripted"]`;
      await page.waitForSelector(`${row}[data-state=open]`, wait);
      const text = await page.textContent(row) ?? "";
      assert.match(text, /Provider\s*scripted/, `the row names the provider: ${text}`);
      assert.match(text, /Switched off/, `the state is worded for a person: ${text}`);
      assert.match(text, /2 of the last 4 calls failed · 2 in a row/, `recent failures: ${text}`);
      const retry = /Tries again in 0:(\d\d)/.exec(text);
      assert.ok(retry && Number(retry[1]) <= 30, `when it retries (at most 30 s away): ${text}`);
      await waitForTextContaining(page, `${HEALTH} .health-summary`, "switched off");
      const first = await page.$$eval(
        `${HEALTH} tbody tr`,
        (rows) => rows.map((r) => r.getAttribute("data-breaker")),
      );
      assert.equal(first[0], "provider:scripted", `the open breaker is listed first: ${first}`);
      await page.screenshot({ path: `${dir}/settings-health-open.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${dir}/settings-health-open-390.png` });
      await page.setViewportSize({ width: 1280, height: 800 });

      // While open, the next Run fails fast; the section still shows it open.
      const fast = await runToEnd(client, thread.id, "plain question");
      assert.equal(fast.reasonCode, "provider_circuit_open");
      await page.waitForSelector(`${row}[data-state=open]`, wait);
      const listed = await client.call("breaker.list", {});
      const wire = listed.breakers.find((b) => b.key === "provider:scripted");
      assert.equal(wire?.state, "open", "the section agrees with breaker.list");

      // The failed Run's outcome points back here.
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.settings[open]", { ...wait, state: "detached" });
      await page.click(`nav.sidebar button.thread:has(.title:text-is("Breakers"))`);
      await page.waitForSelector(".run-outcome button.open-health", wait);
      await page.screenshot({ path: `${dir}/feed-circuit-open.png` });
      await page.click(".run-outcome button.open-health");
      await page.waitForSelector(`${row}[data-state=open]`, wait);
      assert.equal(
        await page.getAttribute("#settings-tab-health", "aria-selected"),
        "true",
        "Settings opened at Health",
      );
    });
  },
});

/** The open period of the tool-breaker test's breakers: long enough to read, short to wait. */
const SHORT_OPEN_MS = 5000;

Deno.test({
  name: "browser: Settings › Health shows a tool breaker open, testing again, then closed",
  ignore: !hasChromium,
  fn: async () => {
    const dir = await screenshotDir();
    await withBrowser(
      async (run) => {
        const { page } = run;
        const client = createHttpClient({ url: run.server.url, token: run.token });
        await logIn(run);
        await openSettingsAt(page, "health");
        await page.waitForSelector(`${HEALTH} .health-none`, wait);
        const { thread } = await client.call("thread.create", { title: "Flaky" });
        const flaky = (fail: boolean, attempt: number) =>
          runToEnd(client, thread.id, `call: flaky ${JSON.stringify({ fail, attempt })}`);
        // Four failed calls of four open the tool's breaker.
        for (let attempt = 1; attempt <= 4; attempt++) await flaky(true, attempt);
        const row = `${HEALTH} tr[data-breaker="flaky"]`;
        await page.waitForSelector(`${row}[data-state=open]`, wait);
        const open = await page.textContent(row) ?? "";
        assert.match(open, /Tool\s*flaky/, open);
        assert.match(open, /4 of the last 4 calls failed · 4 in a row/, open);
        assert.match(open, /Tries again in 0:0[1-5]/, `a 5 s wait counts down: ${open}`);
        // Once its wait is over the section says the next call is the probe, unasked.
        await page.waitForSelector(`${row}[data-state=half_open]`, wait);
        assert.match(
          await page.textContent(row) ?? "",
          /Testing again.*The next call tests whether it works again/,
        );
        await page.screenshot({ path: `${dir}/settings-health-half-open.png` });
        // A successful probe closes it; the settled Run makes the section read it again.
        await flaky(false, 5);
        await page.waitForSelector(`${row}[data-state=closed]`, wait);
        await waitForTextContaining(page, `${HEALTH} .health-summary`, "All tools and providers");
        const wire = (await client.call("breaker.list", {})).breakers.find((b) =>
          b.key === "flaky"
        );
        assert.equal(wire?.state, "closed", "the section agrees with breaker.list");
      },
      undefined,
      { env: { FIXTURE_FLAKY_TOOL: "1", DAEDALUS_BREAKER_OPEN_MS: String(SHORT_OPEN_MS) } },
    );
  },
});

Deno.test({
  name: "browser: a fallback picked in Settings carries a failing Run, named in the feed",
  ignore: !hasChromium,
  fn: async () => {
    const dir = await screenshotDir();
    await withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await client.call("provider.configure", {
        kind: "custom",
        providerId: "scripted",
        displayName: "Scripted",
        baseUrl: "http://127.0.0.1:9/v1",
        models: [
          { id: "scripted-model", displayName: "Scripted model" },
          { id: "scripted-vision", displayName: "Scripted vision" },
        ],
      });
      await logIn(run);
      await openSettingsAt(page, "providers");
      const primaryPicker = "#fallback-scripted-scripted-model";
      const backupPicker = "#fallback-scripted-scripted-vision";
      await page.waitForSelector(primaryPicker, wait);
      const options = await page.$$eval(
        `${primaryPicker} option`,
        (nodes) => nodes.map((node) => node.textContent ?? ""),
      );
      assert.deepEqual(options, ["None", "Scripted vision (scripted/scripted-vision)"]);
      await page.selectOption(primaryPicker, "scripted/scripted-vision");
      await page.waitForSelector(`${primaryPicker}:not([disabled])`, wait);
      const listed = await client.call("model.list", {});
      assert.deepEqual(
        listed.models.find((m) => m.id === "scripted-model")?.fallback,
        { providerId: "scripted", modelId: "scripted-vision" },
        "the fallback is stored",
      );
      assert.equal(await page.inputValue(primaryPicker), "scripted/scripted-vision");

      // Another window disables the primary; naming it as the backup's fallback is
      // refused and explained beside the backup's picker.
      await client.call("model.set_enabled", {
        providerId: "scripted",
        modelId: "scripted-model",
        enabled: false,
      });
      await page.selectOption(backupPicker, "scripted/scripted-model");
      const refusal = `.model-row[data-model="scripted-vision"] .model-fallback .section-failure`;
      await page.waitForSelector(refusal, wait);
      const why = await page.textContent(refusal) ?? "";
      assert.match(why, /another configured, enabled model/, `explained: ${why}`);
      assert.match(why, /model_fallback_invalid/, `the code is shown: ${why}`);
      assert.equal(await page.inputValue(backupPicker), "", "the picker shows what is stored");
      assert.equal(
        await page.$eval(
          `${backupPicker} option:checked`,
          (node) => node.textContent ?? "(nothing shown)",
        ),
        "None",
        "the picker shows None, not a blank",
      );
      await page.screenshot({ path: `${dir}/settings-fallback-refused.png` });
      await client.call("model.set_enabled", {
        providerId: "scripted",
        modelId: "scripted-model",
        enabled: true,
      });
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.settings[open]", { ...wait, state: "detached" });

      // A Run whose primary fails with a retryable reason continues on the fallback; the
      // thread is open, so the feed hears `run.model_fallback` live.
      const { thread } = await client.call("thread.create", { title: "Falls back" });
      await page.click(`nav.sidebar button.thread:has(.title:text-is("Falls back"))`);
      await page.waitForSelector("form.composer textarea", wait);
      await client.call("turn.start", {
        threadId: thread.id,
        content: "fallback? server the primary is down",
        providerId: "scripted",
        modelId: "scripted-model",
        executionPolicy: "full_access",
      });
      await waitForAnswer(page, "Answered by scripted-vision");
      await page.waitForSelector(".feed-row .run-fallback", wait);
      const line = await page.textContent(".feed-row .run-fallback") ?? "";
      assert.match(
        line,
        /The provider had a server error\. Continued on Scripted vision \(scripted\/scripted-vision\)\./,
        `the line says why and where: ${line}`,
      );
      assert.match(line, /Started on\s*Scripted model \(scripted\/scripted-model\)/, line);
      assert.match(line, /provider_server/);
      // The line sits where the move happened: before the fallback's answer.
      const order = await page.$$eval(
        ".feed-row",
        (rows) =>
          rows.map((row) =>
            row.querySelector(".run-fallback")
              ? "fallback"
              : row.querySelector("article.message.role-assistant")
              ? "answer"
              : "other"
          ),
      );
      assert.ok(
        order.indexOf("fallback") !== -1 && order.indexOf("fallback") < order.indexOf("answer"),
        `the fallback line precedes the answer: ${order}`,
      );
      assert.equal(
        await page.textContent(".conversation-header .model-label"),
        "scripted-model → scripted-vision",
        "the header names both models",
      );
      await page.screenshot({ path: `${dir}/feed-fallback.png` });

      // After a reload the run record still names both models (the reason was live only).
      await page.reload();
      await page.click(`nav.sidebar button.thread:has(.title:text-is("Falls back"))`);
      await page.waitForSelector(".feed-row .run-fallback", wait);
      const reloaded = await page.textContent(".feed-row .run-fallback") ?? "";
      assert.match(reloaded, /continued on Scripted vision/, reloaded);
      assert.match(reloaded, /Started on\s*Scripted model/, reloaded);
    });
  },
});

Deno.test({
  name: "browser: a tool call waiting for its approval reads so in its own row",
  ignore: !hasChromium,
  fn: async () => {
    const dir = await screenshotDir();
    await withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await logIn(run);
      const { thread } = await client.call("thread.create", { title: "Waits" });
      await client.call("turn.start", {
        threadId: thread.id,
        content: `call: process_start ${JSON.stringify({ command: "echo waited" })}`,
        providerId: "scripted",
        modelId: "scripted-model",
        executionPolicy: "ask",
      });
      await page.click(`nav.sidebar button.thread:has(.title:text-is("Waits"))`);
      const call = '.feed-row .tool-row[data-tool="process_start"]';
      await page.waitForSelector(".feed-row .approval-card.pending", wait);
      await page.waitForSelector(`${call}.status-waiting-approval`, wait);
      const status = await page.textContent(`${call} .tool-state`);
      assert.equal(status, "waiting for approval", "a waiting call is not 'running'");
      await page.screenshot({ path: `${dir}/tool-card-waiting.png` });

      await page.click(".feed-row .approval-card.pending button[data-decision=allow_once]");
      await waitForAnswer(page, "Result:");
      await page.waitForSelector(`${call}.status-completed`, wait);
      // done: the row says nothing more than its verb, target and time
      assert.equal(await page.$(`${call} .tool-state`), null);
    });
  },
});

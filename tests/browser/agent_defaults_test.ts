/**
 * Browser tests of issue 21's PWA polish against a real `daedalus serve` (shipped flags,
 * the scripted model, headless Chromium):
 * - Settings › Agents › Default model: the runtime saves it, a Build copy without a model
 *   says "Default model (…)" in the editor, and runs with it — a turn that names no model
 *   (the runtime's fallback) and the composer of a new thread (which starts with it);
 * - the thread header's agent switch follows another client's `thread.set_agent`;
 * - a thread waiting on an `ask_user` question has a "question" badge in the sidebar, also
 *   after a reload, until the question is answered.
 * The scripted model answers "fallback? …" on any model but `scripted-model` with
 * "Answered by <model id>", so the model a Run used shows in its answer. Screenshots (light
 * and dark) go to BROWSER_SCREENSHOTS_DIR. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createHttpClient, type HttpClient } from "@daedalus/client";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  sendMessage,
  startMessage,
  waitForAnswer,
  withBrowser,
} from "./_browser.ts";

const wait = { timeout: PAGE_WAIT_MS };
const SECTION = "dialog.settings[open] section.settings-agents";
const SWITCH = "header.conversation-header select.agent-switch";
const VISION = { providerId: "scripted", modelId: "scripted-vision" };

async function screenshotDir(): Promise<string> {
  const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
    await Deno.makeTempDir({ prefix: "daedalus_screenshots_" });
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

async function screenshots(page: Page, dir: string, name: string, selector?: string) {
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
    const path = `${dir}/${name}-${theme}.png`;
    if (selector) await page.locator(selector).screenshot({ path });
    else await page.screenshot({ path });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** Polls `read` until `done` holds, failing with `what` at the deadline. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) {
  const deadline = Date.now() + PAGE_WAIT_MS;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`${what}; last seen: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  return last;
}

/** A turn without a model, over RPC: the runtime picks it; returns the settled Run. */
async function runWithoutModel(client: HttpClient, threadId: string, content: string) {
  const { runId } = await client.call("turn.start", { threadId, content });
  const runs = await eventually(
    async () => (await client.call("turn.list", { threadId })).turns.flatMap((t) => t.runs),
    (list) => list.some((r) => r.id === runId && r.settledAt !== null),
    `run ${runId} did not settle`,
  );
  return runs.find((r) => r.id === runId)!;
}

Deno.test({
  name: "browser: the default model from Settings runs a Build copy without a model",
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

      await page.keyboard.press("Control+,");
      await page.waitForSelector("dialog.settings[open]", wait);
      await page.click("#settings-tab-agents");
      const field = `${SECTION} select[name=default-model]`;
      await page.waitForSelector(field, wait);
      assert.equal(await page.inputValue(field), "", "no default model at first");
      await page.selectOption(field, "scripted/scripted-vision");
      const saved = await eventually(
        async () => (await client.call("settings.read", {})).settings.defaultModel,
        (model) => model?.modelId === "scripted-vision",
        "the runtime did not save the default model",
      );
      assert.deepEqual(saved, VISION);
      await screenshots(page, dir, "default-model-settings", "dialog.settings[open]");

      await page.click(`${SECTION} li[data-agent=build] button:text-is("Copy")`);
      await page.waitForSelector(`${SECTION} form.agent-editor`, wait);
      const none = await page.textContent(`${SECTION} select[name=model] option[value=""]`);
      assert.equal(none?.trim(), "Default model (Scripted vision)", "the editor's model choice");
      assert.equal(await page.inputValue(`${SECTION} select[name=model]`), "");
      await screenshots(page, dir, "default-model-editor", "dialog.settings[open]");
      await page.click(`${SECTION} button[type=submit]`);
      await page.waitForSelector(`${SECTION} li[data-agent=build-copy]`, wait);
      const { agent } = await client.call("agent.get", { agentId: "build-copy" });
      assert.equal(agent.profile.model, undefined, "the copy must have no model of its own");
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.settings[open]", { state: "detached", ...wait });

      // The runtime's fallback: a turn that names no model, on a thread bound to the copy.
      const { thread } = await client.call("thread.create", { agentId: "build-copy" });
      const fallback = await runWithoutModel(client, thread.id, "fallback? unknown no");
      assert.equal(fallback.status, "completed", `the run ended ${fallback.reasonCode}`);
      assert.deepEqual([fallback.providerId, fallback.modelId], ["scripted", "scripted-vision"]);

      // The PWA: a new thread's composer starts with the default model, and the model
      // sees it (scripted-model would fail the "fallback?" message).
      await page.click("nav.sidebar button.new-thread");
      await page.waitForFunction(
        `document.querySelector("form.composer select")?.value === "scripted/scripted-vision"`,
        undefined,
        wait,
      );
      await sendMessage(page, "fallback? unknown no", "Answered by scripted-vision");
      await page.locator(SWITCH).selectOption("build-copy");
      await eventually(
        async () => (await client.call("thread.list", { limit: 1 })).threads[0]?.agentId,
        (agentId) => agentId === "build-copy",
        "the PWA did not bind its thread to the copy",
      );
      await page.fill("form.composer textarea", "fallback? unknown again");
      await page.click("form.composer button[type=submit]");
      await waitForAnswer(page, "Answered by scripted-vision");
      await screenshots(page, dir, "default-model-thread");
    });
  },
});

Deno.test({
  name: "browser: a question badge while ask_user waits; another client's agent switch shows",
  ignore: !hasChromium,
  fn: async () => {
    const dir = await screenshotDir();
    await withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await logIn(run);

      const question = { question: "Which port?", choices: ["8080", "9090"] };
      await startMessage(page, `call: ask_user ${JSON.stringify(question)}`);
      const badge = "nav.sidebar button.thread .waiting-badge.question-badge";
      await page.waitForSelector(badge, wait);
      assert.equal((await page.textContent(badge))?.trim(), "question");
      assert.equal(
        await page.locator("nav.sidebar button.thread .waiting-badge").count(),
        1,
        "a question shows one badge, not the approval badge as well",
      );
      await screenshots(page, dir, "question-badge", "nav.sidebar");
      // The waiting question is listed again after a reload, and so is its badge.
      await page.reload();
      await page.waitForSelector(badge, wait);
      await page.click('.feed-row .question-card.pending .question-choice:text-is("9090")');
      await waitForAnswer(page, "Result: The user answered: 9090");
      await page.waitForSelector(badge, { state: "detached", ...wait });
      assert.equal(
        await page.locator("nav.sidebar button.thread .waiting-badge").count(),
        0,
        "an answered question leaves no badge",
      );

      // Another client switches the open thread's agent: the header follows.
      await page.waitForFunction(
        `document.querySelector(${JSON.stringify(SWITCH)})?.value === "build" && ` +
          `!document.querySelector(${JSON.stringify(SWITCH)}).disabled`,
        undefined,
        wait,
      );
      const { threads } = await client.call("thread.list", { limit: 1 });
      await client.call("thread.set_agent", { threadId: threads[0]!.id, agentId: "plan" });
      await page.waitForFunction(
        `document.querySelector(${JSON.stringify(SWITCH)})?.value === "plan"`,
        undefined,
        wait,
      );
      await screenshots(page, dir, "agent-switch-live", "header.conversation-header");
    });
  },
});

/**
 * Browser test of approvals against a real `daedalus serve` (shipped flags, the scripted
 * model, headless Chromium): a `process_start` under the `ask` preset waits for the user.
 * The sidebar badges the waiting thread (also after a reload) and the run's progress says
 * so; the card in the feed shows the command, the risk and why it asks, with one button
 * per accepted answer. Allow once runs the command; Deny with a message (by keyboard: Esc
 * to the message, Enter) gives the model a tool error with the message; a write outside
 * the workspace is previewed; a high-risk command offers only Allow once and Deny; Stop
 * while waiting cancels the Run; Always allow writes a rule to config.yaml that the next
 * Run obeys without asking. In a background window an approval notifies. Screenshots of
 * the card are saved. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";

type HttpClient = ReturnType<typeof createHttpClient>;
import type { Page } from "playwright-core";
import { hasChromium, logIn, PAGE_WAIT_MS, waitForAnswer, withBrowser } from "./_browser.ts";

const wait = { timeout: PAGE_WAIT_MS };
const PENDING = ".feed-row .approval-card.pending";

/** Starts a Run under the `ask` preset that calls process_start with `command`. */
async function askToRun(
  client: HttpClient,
  threadId: string,
  command: string,
): Promise<void> {
  await client.call("turn.start", {
    threadId,
    content: `call: process_start ${JSON.stringify({ command })}`,
    providerId: "scripted",
    modelId: "scripted-model",
    executionPolicy: "ask",
  });
}

function threadButton(title: string): string {
  return `nav.sidebar button.thread:has(.title:text-is("${title}"))`;
}

async function waitNoPendingCard(page: Page): Promise<void> {
  await page.waitForSelector(PENDING, { ...wait, state: "detached" });
}

Deno.test({
  name: "browser: the approval card allows once, denies with a message, and always allows",
  ignore: !hasChromium,
  fn: async () => {
    const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
      await Deno.makeTempDir({ prefix: "daedalus_screenshots_" });
    await Deno.mkdir(dir, { recursive: true });
    await withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await logIn(run);
      const { thread } = await client.call("thread.create", { title: "Needs approval" });

      // The waiting Run badges its thread in the sidebar, before the thread is opened.
      await askToRun(client, thread.id, "echo hi");
      await page.waitForSelector(`${threadButton("Needs approval")} .waiting-badge`, wait);
      // After a reload no run event says it waits: the pending approvals list does.
      await page.reload();
      await page.waitForSelector(`${threadButton("Needs approval")} .waiting-badge`, wait);
      await page.click(threadButton("Needs approval"));
      await page.waitForSelector(PENDING, wait);
      await page.waitForSelector(".run-progress .progress-waiting", wait);
      // The feed is no live region: the hidden status says the Run waits.
      await page.waitForFunction(
        `[...document.querySelectorAll('.visually-hidden[role=status]')]` +
          `.some((node) => node.textContent === "Waiting for your approval")`,
        undefined,
        wait,
      );
      const card = await page.textContent(PENDING) ?? "";
      assert.match(card, /process_start/);
      assert.match(card, /echo hi/, "the card shows the command");
      assert.match(card, /runs a command/, "the card shows the risk");
      assert.match(card, /Your permission settings ask/, "the card says why it asks");
      assert.match(card, /Keys: Enter on the card allows once/, "the keys are documented");
      assert.match(card, /allow from now on: process_start echo hi/, "the rule is named");
      const buttons = await page.$$eval(
        `${PENDING} .approval-actions button`,
        (nodes) => nodes.map((node) => node.textContent),
      );
      assert.deepEqual(buttons, [
        "Allow once",
        "Allow for this thread",
        "Always allow",
        "Deny",
      ]);
      const shot = `${dir}/approval-card.png`;
      await page.locator(PENDING).screenshot({ path: shot });
      await page.screenshot({ path: `${dir}/approval-feed.png` });
      assert.ok((await Deno.stat(shot)).size > 1000, `${shot} is empty`);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.locator(PENDING).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${dir}/approval-feed-390x844.png` });
      const box = await page.locator(PENDING).boundingBox();
      assert.ok(box !== null && box.x >= 0 && box.x + box.width <= 390, "the card overflows");
      await page.setViewportSize({ width: 1280, height: 800 });

      // Allow once: the command runs and the model answers with its result.
      await page.click(`${PENDING} button[data-decision=allow_once]`);
      await page.waitForSelector(".approval-card.status-allowed", wait);
      assert.equal(
        await page.textContent(".approval-card.status-allowed .approval-outcome"),
        "Allowed once",
      );
      await waitForAnswer(page, "Result: ");
      await page.waitForSelector(`${threadButton("Needs approval")} .waiting-badge`, {
        ...wait,
        state: "detached",
      });

      // Deny with a message, by keyboard: Esc moves to the message, Enter denies.
      await askToRun(client, thread.id, "echo two");
      await page.waitForSelector(PENDING, wait);
      await page.focus(PENDING);
      await page.keyboard.press("Escape");
      assert.equal(
        await page.evaluate("document.activeElement?.tagName"),
        "TEXTAREA",
        "Esc must move to the message field",
      );
      await page.keyboard.type("use the test task instead");
      await page.keyboard.press("Enter");
      await page.waitForSelector(".approval-card.status-denied", wait);
      assert.equal(
        await page.textContent(".approval-card.status-denied .approval-outcome"),
        "Denied: “use the test task instead”",
      );
      await waitNoPendingCard(page);
      await page.waitForFunction(
        `[...document.querySelectorAll('article.message.role-assistant')]` +
          `.some((a) => a.textContent.includes("use the test task instead"))`,
        undefined,
        wait,
      );

      await page.locator(".approval-card.status-denied").screenshot({
        path: `${dir}/approval-card-denied.png`,
      });

      // A write outside the workspace asks too; the card previews the new content.
      const outside = await Deno.makeTempDir({ prefix: "daedalus_outside_" });
      await client.call("turn.start", {
        threadId: thread.id,
        content: `call: write ${
          JSON.stringify({ path: `${outside}/notes.md`, content: "# Notes\nfirst line\n" })
        }`,
        providerId: "scripted",
        modelId: "scripted-model",
        executionPolicy: "ask",
      });
      await page.waitForSelector(`${PENDING} table.approval-diff`, wait);
      const added = await page.$$eval(
        `${PENDING} table.approval-diff tr.diff-add`,
        (rows) => rows.map((row) => row.textContent?.replace("+", "").trim()),
      );
      assert.deepEqual(added, ["# Notes", "first line"], "the preview shows the new content");
      assert.match(await page.textContent(PENDING) ?? "", /changes files/);
      await page.locator(PENDING).screenshot({ path: `${dir}/approval-card-write.png` });
      await page.screenshot({ path: `${dir}/approval-feed-write.png` });
      await page.click(`${PENDING} button[data-decision=deny]`);
      await page.waitForSelector(".approval-card.status-denied >> text=Denied", wait);
      await waitNoPendingCard(page);
      await assert.rejects(Deno.stat(`${outside}/notes.md`), Deno.errors.NotFound, "denied");
      await Deno.remove(outside, { recursive: true });

      // A high-risk command is judged call by call: only Allow once and Deny are offered.
      await askToRun(client, thread.id, "sudo ls /root");
      await page.waitForSelector(PENDING, wait);
      assert.deepEqual(
        await page.$$eval(
          `${PENDING} .approval-actions button`,
          (nodes) => nodes.map((node) => node.textContent),
        ),
        ["Allow once", "Deny"],
      );
      assert.match(await page.textContent(PENDING) ?? "", /high-risk list/);
      await page.click(`${PENDING} button[data-decision=deny]`);
      await waitNoPendingCard(page);

      // Stop while waiting cancels the Run; the card says the question went unanswered.
      await askToRun(client, thread.id, "echo stopped");
      await page.waitForSelector(PENDING, wait);
      await page.click("form.composer button:text-is('Stop')");
      await page.waitForSelector(".approval-card.status-cancelled", wait);
      assert.match(
        await page.textContent(".approval-card.status-cancelled .approval-outcome") ?? "",
        /^Cancelled/,
      );
      await waitNoPendingCard(page);

      // Always allow: a rule in config.yaml, and the next Run runs the command unasked.
      await askToRun(client, thread.id, "echo three");
      await page.waitForSelector(PENDING, wait);
      await page.click(`${PENDING} button[data-decision=allow_always]`);
      await page.waitForSelector(".approval-card.status-allowed >> text=Always allowed", wait);
      const { rules } = await client.call("permission.read", {});
      assert.equal(rules.length, 1, `allow_always must add one rule: ${JSON.stringify(rules)}`);
      assert.equal(rules[0]?.tool, "process_start");
      const { thread: next } = await client.call("thread.create", { title: "Already allowed" });
      await askToRun(client, next.id, "echo three");
      await page.click(threadButton("Already allowed"));
      await waitForAnswer(page, "Result: ");
      assert.equal(await page.$(".approval-card"), null, "the rule must spare the question");
      const waiting = await client.call("approval.list", { status: "pending" });
      assert.deepEqual(waiting.approvals, []);
      assert.deepEqual(run.pageErrors, []);
    });
    console.log(`screenshots: ${dir}`);
  },
});

/** Records notifications and makes the window look unfocused (a background window). */
const RECORD_NOTIFICATIONS = `
  globalThis.__notes = [];
  const Real = globalThis.Notification;
  if (Real) {
    globalThis.Notification = class extends Real {
      constructor(title, options) {
        super(title, options);
        globalThis.__notes.push({ title, body: options?.body, tag: options?.tag });
      }
    };
  }
  document.hasFocus = () => false;
`;

Deno.test({
  name: "browser: an approval in a background window offers notifications, then notifies",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page, context } = run;
      await context.addInitScript(RECORD_NOTIFICATIONS);
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await logIn(run);
      const { thread } = await client.call("thread.create", { title: "First ask" });
      await askToRun(client, thread.id, "echo first");
      // The first approval brings the offer; nothing asked the browser on its own.
      await page.waitForSelector(".banner-notify >> text=waits for your approval", wait);
      assert.equal(await page.evaluate<string>("Notification.permission"), "default");
      assert.deepEqual(await page.evaluate("globalThis.__notes"), []);
      await context.grantPermissions(["notifications"], { origin: run.server.url });
      await page.click(".banner-notify button:text('Enable notifications')");
      await page.waitForSelector(".banner-notify", { ...wait, state: "detached" });

      const { thread: second } = await client.call("thread.create", { title: "Second ask" });
      await askToRun(client, second.id, "echo second");
      await page.waitForFunction("globalThis.__notes.length > 0", undefined, wait);
      const notes = await page.evaluate<{ title: string; body: string; tag: string }[]>(
        "globalThis.__notes",
      );
      assert.equal(notes.length, 1, `one notification per approval: ${JSON.stringify(notes)}`);
      assert.equal(notes[0]?.title, "Daedalus is waiting for your approval");
      assert.equal(notes[0]?.body, "process_start: echo second");
      assert.match(notes[0]?.tag ?? "", /^approval_/);
      assert.deepEqual(run.pageErrors, []);
    }),
});

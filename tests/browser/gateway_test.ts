/**
 * Browser test of Settings › Gateway against the fixture runtime: the form names a wrong
 * field and sends nothing, a key is created and shown once with a working copy button and
 * examples that carry it, one Dify request made with the copied key makes a thread the
 * sidebar and the thread header show "via <key name>", and the key is revoked after a
 * confirmation (the gateway refuses it, the thread keeps its source). Screenshots light
 * and dark go to BROWSER_SCREENSHOTS_DIR when set, else a temp directory. Skipped without
 * Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient, TOOL_IDS } from "@daedalus/client";
import type { Page } from "playwright-core";
import { hasChromium, logIn, PAGE_WAIT_MS, waitForText, withBrowser } from "./_browser.ts";

const wait = { timeout: PAGE_WAIT_MS };
const SECTION = "dialog.settings[open] .gateway-section";
const KEY_NAME = "Support desk";

async function openGateway(page: Page): Promise<void> {
  await page.keyboard.press("Control+,");
  await page.waitForSelector("dialog.settings[open]", wait);
  await page.click("#settings-tab-gateway");
  await page.waitForSelector(`${SECTION} form.gateway-form select[name=model] option`, {
    ...wait,
    state: "attached",
  });
}

async function shoot(page: Page, dir: string, name: string, shots: string[]): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
    await page.evaluate(
      "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))",
    );
    const path = `${dir}/gateway-${name}-${theme}.png`;
    await page.screenshot({ path });
    assert.ok((await Deno.stat(path)).size > 5000, `${path} is nearly empty`);
    shots.push(path);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

function difyChat(url: string, key: string): Promise<Response> {
  return fetch(new URL("dify/v1/chat-messages", url), {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      query: "hello gateway",
      user: "web",
      inputs: {},
      response_mode: "blocking",
    }),
  });
}

Deno.test({
  name: "browser: Settings › Gateway creates a key shown once, its thread shows its source, revoke",
  ignore: !hasChromium,
  fn: async () => {
    const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
      await Deno.makeTempDir({ prefix: "daedalus_gateway_shots_" });
    await Deno.mkdir(dir, { recursive: true });
    const shots: string[] = [];
    await withBrowser(async (run) => {
      const { page, context } = run;
      await context.grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: run.server.url,
      });
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await logIn(run);
      await openGateway(page);
      await page.getByText("No app keys yet. Create one below.").waitFor(wait);

      // A wrong form is named beside its fields and sends nothing.
      await page.fill(
        `${SECTION} input[name=origins], ${SECTION} textarea[name=origins]`,
        "app.example.com",
      );
      await page.click(`${SECTION} form.gateway-form button[type=submit]`);
      await page.waitForSelector(`${SECTION} #gateway-name-note.section-failure`, wait);
      await page.waitForSelector(`${SECTION} #gateway-origins-note.section-failure`, wait);
      assert.equal(
        await page.getAttribute(`${SECTION} input[name=name]`, "aria-invalid"),
        "true",
        "the empty name is not marked invalid",
      );
      assert.deepEqual(
        (await client.call("gateway.key.list", {})).keys,
        [],
        "a wrong form was sent",
      );

      assert.equal(
        await page.textContent(`${SECTION} #gateway-name-note`),
        "Give the key a name (1–100 characters).",
      );
      await page.fill(`${SECTION} input[name=name]`, KEY_NAME);
      assert.equal(
        await page.$(`${SECTION} #gateway-name-note`),
        null,
        "the fixed name stays wrong",
      );
      await page.selectOption(`${SECTION} select[name=permission]`, "full_access");
      await page.fill(`${SECTION} textarea[name=origins]`, "https://app.example.com");
      await page.getByLabel("Only the tools chosen below").check();
      for (const tool of ["read", "grep"]) {
        await page.check(`${SECTION} .gateway-tool-grid input[value=${tool}]`);
      }
      assert.equal(
        await page.locator(`${SECTION} .gateway-tool-grid input[type=checkbox]`).count(),
        TOOL_IDS.length,
        "the built-in tools are not all offered",
      );
      await page.locator(`${SECTION} .gateway-tools`).scrollIntoViewIfNeeded();
      await shoot(page, dir, "form", shots);
      // What only the runtime can check comes back as a reason code, explained.
      await page.fill(`${SECTION} input[name=workspace]`, "/nonexistent/daedalus-gateway");
      await page.click(`${SECTION} form.gateway-form button[type=submit]`);
      const refusal = page.locator(`${SECTION} [role=alert].section-failure`);
      await refusal.waitFor(wait);
      const refused = await refusal.textContent() ?? "";
      assert.ok(refused.includes("The thread's workspace folder is not available."), refused);
      assert.ok(refused.includes("workspace_unavailable"), refused);
      assert.deepEqual((await client.call("gateway.key.list", {})).keys, [], "a refused key");
      await page.fill(`${SECTION} input[name=workspace]`, "");
      await page.click(`${SECTION} form.gateway-form button[type=submit]`);
      await page.waitForSelector(`${SECTION} .gateway-created`, wait);
      await waitForText(page, `${SECTION} .gateway-created h4`, `Key “${KEY_NAME}” created`);
      const once = await page.textContent(`${SECTION} .gateway-once`) ?? "";
      assert.match(once, /you will not see it again/, once);
      const shown = await page.inputValue(`${SECTION} .gateway-secret input`);
      assert.match(shown, /^app-[0-9a-f]{40}$/, `not a key: ${shown}`);
      await page.getByRole("button", { name: "Copy key" }).click();
      await page.waitForFunction(
        `navigator.clipboard.readText().then((t) => t === ${JSON.stringify(shown)})`,
        undefined,
        wait,
      );
      const key = await page.evaluate<string>("navigator.clipboard.readText()");
      // The examples of the new key carry it; the Dify curl is copied as shown.
      await page.getByRole("button", { name: "Copy curl, Dify streaming" }).first().click();
      const curl = await page.evaluate<string>("navigator.clipboard.readText()");
      assert.ok(curl.includes(`Authorization: Bearer ${key}`), curl);
      assert.ok(curl.includes(`${new URL(run.server.url).origin}/dify/v1/chat-messages`), curl);
      const stored = (await client.call("gateway.key.list", {})).keys[0]?.profile;
      assert.deepEqual(stored?.tools, ["read", "grep"], "the tool subset was not sent");
      assert.deepEqual(stored?.allowedOrigins, ["https://app.example.com"]);
      const row = `${SECTION} .gateway-key`;
      await page.waitForSelector(row, wait);
      const facts = await page.textContent(`${row} .gateway-facts`) ?? "";
      for (
        const fact of [
          "scripted / scripted-model",
          "Full access",
          "https://app.example.com",
          "read, grep",
          "Never",
        ]
      ) {
        assert.ok(facts.includes(fact), `the row does not show ${fact}: ${facts}`);
      }
      assert.ok(facts.includes(key.slice(0, 8)), `the row does not show the hint: ${facts}`);
      await shoot(page, dir, "created", shots);
      await page.setViewportSize({ width: 390, height: 844 });
      await shoot(page, dir, "created-phone", shots);
      await page.setViewportSize({ width: 1280, height: 800 });

      // One Dify request with the copied key makes a thread the sidebar shows with its source.
      const answered = await difyChat(run.server.url, key);
      assert.equal(answered.status, 200, await answered.clone().text());
      const { conversation_id: conversation } = await answered.json();
      await page.getByRole("button", { name: "I have copied it" }).click();
      assert.equal(await page.$(`${SECTION} .gateway-created`), null, "the key stayed on screen");
      await page.keyboard.press("Escape");
      const badge = page.locator("nav.sidebar button.thread .source-badge");
      await badge.first().waitFor(wait);
      assert.equal(await badge.first().textContent(), `via ${KEY_NAME}`);
      assert.equal(
        await badge.first().getAttribute("aria-label"),
        `Made through the gateway with app key ${KEY_NAME}`,
      );
      await page.locator("nav.sidebar button.thread:has(.source-badge)").first().click();
      await waitForText(page, ".conversation-header .source-badge", `via ${KEY_NAME}`);
      const threadId = `thread_${String(conversation).replaceAll("-", "")}`;
      const read = await client.call("thread.get", { threadId });
      assert.equal(read.thread.source?.keyName, KEY_NAME);
      await shoot(page, dir, "thread", shots);

      // Revoke, after a confirmation: the gateway refuses the key, the thread keeps its name.
      await openGateway(page);
      await page.getByRole("button", { name: `Revoke key ${KEY_NAME}` }).click();
      await waitForText(
        page,
        `${row} .gateway-confirm p`,
        `Revoke “${KEY_NAME}”? Every app using it is refused from now on (401). Its threads stay, with its name.`,
      );
      await page.locator(`${row} .gateway-confirm`).scrollIntoViewIfNeeded();
      await shoot(page, dir, "confirm", shots);
      await page.click(`${row} .gateway-confirm button.danger`);
      await page.waitForSelector(`${row} .gateway-state.revoked`, wait);
      assert.equal(await page.$(`${row} .gateway-confirm`), null, "the confirmation stayed");
      const listed = (await client.call("gateway.key.list", {})).keys;
      assert.notEqual(listed[0]?.revokedAt, null, "the runtime did not revoke the key");
      assert.equal((await difyChat(run.server.url, key)).status, 401, "a revoked key was accepted");
      await page.keyboard.press("Escape");
      await waitForText(page, "nav.sidebar button.thread .source-badge", `via ${KEY_NAME}`);
      await waitForText(page, ".conversation-header .source-badge", `via ${KEY_NAME}`);
    });
    assert.equal(shots.length, 10, shots.join(", "));
    console.log(`gateway screenshots: ${dir}`);
  },
});

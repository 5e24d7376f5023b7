/**
 * Browser test of Settings › Channels against a real `daedalus serve` (the scripted fixture)
 * and a fake Telegram Bot API on 127.0.0.1: the owner pastes the token, points the channel
 * at the fake server, picks the Plan profile, saves; the channel runs; a /start from
 * Telegram shows the owner in Settings and its thread is bound to Plan; the token field is masked and never filled back. Screenshots light and dark.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import { hasChromium, logIn, PAGE_WAIT_MS, withBrowser } from "./_browser.ts";
import { startFakeTelegram } from "../../packages/runtime/channels/telegram/_test_fake_bot_api.ts";

const wait = { timeout: PAGE_WAIT_MS };
const TOKEN = "888002:AAF_browser-channel-token-0000000";

Deno.test({
  name: "browser: the Telegram channel configured in Settings shows its owner after /start",
  ignore: !hasChromium,
  fn: async () => {
    const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
      await Deno.makeTempDir({ prefix: "daedalus_screenshots_" });
    await Deno.mkdir(dir, { recursive: true });
    await using fake = startFakeTelegram({ token: TOKEN, username: "daedalus_phone_bot" });
    await withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await page.keyboard.press("Control+,");
      await page.waitForSelector("dialog.settings[open]", wait);
      await page.click("#settings-tab-channels");
      await page.waitForSelector(".channels-section form.channel-form", wait);
      assert.equal(
        await page.getAttribute("#channel-token", "type"),
        "password",
        "the token is masked",
      );
      await page.fill("#channel-token", TOKEN);
      await page.click(".channel-advanced summary");
      await page.fill("#channel-api", fake.url);
      // The profile select lists agent.list's profiles; the channel's threads get plan.
      await page.selectOption("#channel-agent", "plan");
      await page.click(".channel-form button[type=submit]");
      await page.waitForSelector(".channel-card [data-testid=channel-state]:text('Running')", wait);
      assert.equal(await page.inputValue("#channel-token"), "", "the token is never filled back");
      assert.ok(
        !(await page.content()).includes(TOKEN.split(":")[1]),
        "the page never holds the token",
      );

      fake.sendText(4242, "/start", { username: "phone_owner" });
      await page.waitForSelector("[data-testid=channel-owner]:text('@phone_owner')", wait);
      await fake.waitFor(
        () => fake.sent.some((m) => m.text.startsWith("Connected")),
        PAGE_WAIT_MS,
        "the binding reply",
      );
      const client = createHttpClient({ url: run.server.url, token: run.token });
      const [channel] = (await client.call("channel.list", {})).channels;
      assert.equal(channel?.defaultAgentId, "plan", "the form did not save the profile");
      const { thread } = await client.call("thread.get", { threadId: channel.owner!.threadId });
      assert.equal(thread.agentId, "plan", "the owner's thread is not bound to plan");
      assert.equal(await page.inputValue("#channel-agent"), "plan", "the form shows the profile");
      await page.click(".channel-card header button");
      await page.waitForSelector(".channel-test[data-ok=true]", wait);
      await fake.waitFor(
        () => fake.sent.some((m) => m.text.startsWith("Daedalus test message")),
        PAGE_WAIT_MS,
        "the test message",
      );
      await page.screenshot({ path: `${dir}/settings-channels-light.png` });
      await page.emulateMedia({ colorScheme: "dark" });
      await page.waitForTimeout(500); // the theme's colour transitions settle
      await page.screenshot({ path: `${dir}/settings-channels-dark.png` });
      await page.emulateMedia({ colorScheme: "light" });

      await page.click("[data-testid=channel-owner] button");
      await page.waitForSelector("[data-testid=channel-owner]:text('No owner yet')", wait);
      assert.deepEqual(run.pageErrors, []);
    });
    console.log(`screenshots in ${dir}`);
  },
});

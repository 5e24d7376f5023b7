/**
 * Browser test of Settings › Tools (MCP) against a real `daedalus serve` (the scripted
 * fixture with the shipped flags): a stdio server (the tiny paginated test server, run by
 * `node`) is added through the form with a secret environment variable in a masked row; it
 * becomes ready with its tools listed and the variable shown by name only; a turn then
 * calls one of its tools and the feed's tool card names the server; a long call of
 * server-everything shows its progress on the card while it runs. A tool switched off in
 * the list is withdrawn. Screenshots at 1280×900, light and dark, and 390×844. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  sendMessage,
  startMessage,
  waitForAnswer,
  withBrowser,
} from "./_browser.ts";
import { EVERYTHING_ENTRY, PAGINATED_SERVER } from "../../packages/runtime/mcp/_test_servers.ts";

const wait = { timeout: PAGE_WAIT_MS };
const SECRET = "browser-mcp-secret-1f2e3d";
const CARD = ".mcp-card[data-server=pages]";

Deno.test({
  name: "browser: a stdio MCP server added in Settings offers its tools to a turn",
  ignore: !hasChromium,
  fn: async () => {
    const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
      await Deno.makeTempDir({ prefix: "daedalus_screenshots_" });
    await Deno.mkdir(dir, { recursive: true });
    await withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await logIn(run);
      await page.keyboard.press("Control+,");
      await page.waitForSelector("dialog.settings[open]", wait);
      await page.click("#settings-tab-tools");
      await page.waitForSelector(".mcp-section form.mcp-form", wait);

      // A bad entry is refused and the form keeps what was typed.
      await page.fill("#mcp-name", "Bad Name");
      await page.fill("#mcp-command", "node");
      await page.click(".mcp-form button[type=submit]");
      await page.waitForSelector(".mcp-form .section-failure", wait);
      assert.equal(await page.inputValue("#mcp-command"), "node", "the form keeps its input");

      await page.fill("#mcp-name", "pages");
      await page.fill("#mcp-args", PAGINATED_SERVER);
      await page.click(".mcp-form button.mcp-add-row");
      await page.fill(".mcp-secret-row input[type=text]", "API_TOKEN");
      await page.fill(".mcp-secret-row input[type=password]", SECRET);
      await page.evaluate(`document.querySelector(".mcp-form").scrollIntoView({ block: "end" })`);
      await page.screenshot({ path: `${dir}/settings-tools-add.png` });
      await page.click(".mcp-form button[type=submit]");
      await page.waitForSelector(`${CARD}[data-state=ready]`, wait);
      assert.equal(await page.inputValue("#mcp-name"), "", "the form is emptied once added");
      const card = await page.textContent(CARD) ?? "";
      assert.match(card, /Ready/);
      assert.match(card, /8 tools offered/);
      assert.match(card, /API_TOKEN/, "the variable is named");
      assert.ok(!(await page.content()).includes(SECRET), "the secret is never shown");

      await page.click(`${CARD} .mcp-tools summary`);
      await page.click(`${CARD} button[aria-label="Enable tool beta"]`);
      await page.waitForSelector(
        `${CARD} button[aria-label="Enable tool beta"][aria-checked=false]`,
        wait,
      );
      const listed = (await client.call("mcp.list", {})).servers[0];
      assert.equal(listed?.tools.find((tool) => tool.name === "beta")?.modelName, null);
      await page.click(`${CARD} .mcp-log summary`);

      await page.setViewportSize({ width: 1280, height: 900 });
      await page.evaluate(`document.querySelector("${CARD}").scrollIntoView({ block: "start" })`);
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
        await page.waitForTimeout(300); // the theme's colours settle (buttons fade)
        const path = `${dir}/settings-tools-${theme}.png`;
        await page.screenshot({ path });
        assert.ok((await Deno.stat(path)).size > 1000, `${path} is empty`);
      }
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.evaluate(`document.querySelector("${CARD}").scrollIntoView({ block: "start" })`);
      await page.screenshot({ path: `${dir}/settings-tools-390.png` });
      await page.setViewportSize({ width: 1280, height: 900 });
      // The app leaves its phone layout on a media-query change, a moment after the resize:
      // a click aimed at the drawer's buttons before then can land on the wide sidebar's
      // collapse button, which sits where the drawer's head was.
      await page.waitForSelector("nav.sidebar button.sidebar-toggle[aria-expanded=true]", wait);

      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.settings[open]", { state: "detached", ...wait })
        .catch(() => {});
      await sendMessage(page, "call: mcp__pages__alpha {}", "Result: alpha ran");
      // The row names the server and its tool.
      await page.waitForSelector(".tool-row .tool-target >> text=pages · alpha", wait);
      const shot = `${dir}/feed-mcp-tool.png`;
      await page.screenshot({ path: shot });
      assert.ok(!(await page.content()).includes(SECRET), "the secret is not in the feed");

      // A long call's progress shows under its row while it runs.
      await client.call("mcp.configure", {
        name: "everything",
        transport: "stdio",
        command: "node",
        args: [EVERYTHING_ENTRY, "stdio"],
      });
      const deadline = Date.now() + PAGE_WAIT_MS;
      while ((await client.call("mcp.list", {})).servers.some((s) => s.state !== "ready")) {
        assert.ok(Date.now() < deadline, "server-everything did not become ready");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await startMessage(
        page,
        'call: mcp__everything__trigger-long-running-operation {"duration":4,"steps":4}',
      );
      await page.waitForSelector(".tool-row .tool-progress progress", wait);
      assert.match(await page.textContent(".tool-row .tool-progress") ?? "", /\d of 4/);
      await page.screenshot({ path: `${dir}/feed-mcp-progress.png` });
      await waitForAnswer(page, "Result: ");
      await page.waitForSelector(".tool-row .tool-progress", { state: "detached", ...wait });
    });
  },
});

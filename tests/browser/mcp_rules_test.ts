/**
 * Browser test of permission rules for MCP tools against a real `daedalus serve` (shipped
 * flags, the runtime's own `ask` preset, the tiny paginated MCP server over stdio): a
 * turn calling one of its tools first asks; Settings › Permissions offers the server and
 * its tools in the rule form's picker, a rule for the tool is added there and the rules
 * read in words ("All tools of server pages", "pages · alpha"); Settings › Tools (MCP)
 * shows the tool's rule on its quick Always allow / Ask / Deny and sets and removes
 * another tool's rule; the next turn calling the tool runs without asking, and Settings ›
 * Health names the server's breaker "MCP server pages". Screenshots light and dark.
 * Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import type { Page } from "playwright-core";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  startMessage,
  waitForAnswer,
  waitForCount,
  withBrowser,
} from "./_browser.ts";
import { PAGINATED_SERVER } from "../../packages/runtime/mcp/_test_servers.ts";

const wait = { timeout: PAGE_WAIT_MS };
const PERMISSIONS = "dialog.settings .permissions-section";
const PENDING = ".feed-row .approval-card.pending";
const CARD = ".mcp-card[data-server=pages]";

async function addRule(page: Page, tool: string, decision: string) {
  await page.fill(`${PERMISSIONS} form.permission-add input[name=tool]`, tool);
  await page.selectOption(`${PERMISSIONS} form.permission-add select[name=decision]`, decision);
  await page.click(`${PERMISSIONS} form.permission-add button[type=submit]`);
}

async function openSettings(page: Page, tab: string) {
  await page.keyboard.press("Control+,");
  await page.waitForSelector("dialog.settings[open]", wait);
  await page.click(`#settings-tab-${tab}`);
}

async function closeSettings(page: Page) {
  await page.keyboard.press("Escape");
  await page.waitForSelector("dialog.settings[open]", { state: "detached", ...wait });
}

Deno.test({
  name: "browser: a permission rule for an MCP tool lets its call run without asking",
  ignore: !hasChromium,
  fn: async () => {
    const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
      await Deno.makeTempDir({ prefix: "daedalus_screenshots_" });
    await Deno.mkdir(dir, { recursive: true });
    await withBrowser(
      async (run) => {
        const { page } = run;
        const client = createHttpClient({ url: run.server.url, token: run.token });
        await client.call("mcp.configure", {
          name: "pages",
          transport: "stdio",
          command: "node",
          args: [PAGINATED_SERVER],
        });
        const deadline = Date.now() + PAGE_WAIT_MS;
        while ((await client.call("mcp.list", {})).servers[0]?.state !== "ready") {
          assert.ok(Date.now() < deadline, "the paginated server did not become ready");
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await logIn(run);

        // Without a rule the `ask` preset asks before the MCP tool runs.
        await startMessage(page, "call: mcp__pages__alpha {}");
        await page.waitForSelector(PENDING, wait);
        assert.match(await page.textContent(PENDING) ?? "", /alpha/);
        await page.click(`${PENDING} button[data-decision=deny]`);
        await page.waitForSelector(PENDING, { state: "detached", ...wait });

        // The picker offers the server and each of its tools, in words.
        await openSettings(page, "permissions");
        await page.waitForSelector(`${PERMISSIONS} .permission-rules-empty`, wait);
        await page.waitForSelector(
          `${PERMISSIONS} datalist#permission-tools option[value="mcp:pages/alpha"]`,
          { state: "attached", ...wait },
        );
        const options = await page.$$eval(
          `${PERMISSIONS} datalist#permission-tools option`,
          (nodes) => nodes.map((node) => [node.getAttribute("value"), node.getAttribute("label")]),
        );
        const offered = new Map(options.map((option) => [option[0], option[1]] as const));
        assert.equal(offered.get("mcp:pages"), "All tools of server pages", `${options}`);
        assert.equal(offered.get("mcp:pages/alpha"), "pages · alpha", `${options}`);
        assert.ok(offered.has("read"), "the built-in tools are still offered");
        assert.ok(offered.has("mcp:pages/ask_roots"), "every page of tools is offered");

        // A server-wide rule, then the tool's own (the later one wins); a pattern does not
        // apply to MCP rules, so its field is off.
        await page.fill(`${PERMISSIONS} form.permission-add input[name=tool]`, "mcp:pages");
        assert.equal(
          await page.isDisabled(`${PERMISSIONS} form.permission-add input[name=pattern]`),
          true,
          "an MCP rule takes no pattern",
        );
        await addRule(page, "mcp:pages", "ask");
        await waitForCount(page, `${PERMISSIONS} .permission-rules tbody tr`, 1);
        await addRule(page, "mcp:pages/alpha", "allow");
        await waitForCount(page, `${PERMISSIONS} .permission-rules tbody tr`, 2);
        const cells = await page.$$eval(
          `${PERMISSIONS} .permission-rules tbody tr td:nth-child(2)`,
          (nodes) => nodes.map((node) => node.textContent ?? ""),
        );
        assert.deepEqual(cells, ["All tools of server pages", "pages · alpha"]);
        assert.deepEqual((await client.call("permission.read", {})).rules, [
          { index: 0, tool: "mcp:pages", decision: "ask" },
          { index: 1, tool: "mcp:pages/alpha", decision: "allow" },
        ]);
        await page.waitForSelector(
          `${PERMISSIONS} button[aria-label="Remove rule 2: pages · alpha (any) → allow"]`,
          wait,
        );
        await page.setViewportSize({ width: 1280, height: 1000 });
        await page.evaluate(
          `document.querySelector("${PERMISSIONS} .permission-rules").scrollIntoView()`,
        );
        await page.screenshot({ path: `${dir}/settings-permissions-mcp.png` });

        // Settings › Tools: the tool's quick choice shows its rule; another tool's choice
        // writes its rule, and choosing it again removes it.
        await page.click("#settings-tab-tools");
        await page.waitForSelector(`${CARD}[data-state=ready]`, wait);
        await page.click(`${CARD} .mcp-tools summary`);
        const alpha = `${CARD} [role=group][aria-label="Permission for alpha"]`;
        const beta = `${CARD} [role=group][aria-label="Permission for beta"]`;
        await page.waitForSelector(`${alpha} button[data-decision=allow][aria-pressed=true]`, wait);
        await page.click(`${beta} button[data-decision=deny]`);
        await page.waitForSelector(`${beta} button[data-decision=deny][aria-pressed=true]`, wait);
        assert.deepEqual((await client.call("permission.read", {})).rules.at(-1), {
          index: 2,
          tool: "mcp:pages/beta",
          decision: "deny",
        });
        await page.click(`${beta} button[data-decision=ask]`);
        await page.waitForSelector(`${beta} button[data-decision=ask][aria-pressed=true]`, wait);
        assert.deepEqual(
          (await client.call("permission.read", {})).rules.filter((r) =>
            r.tool === "mcp:pages/beta"
          ),
          [{ index: 2, tool: "mcp:pages/beta", decision: "ask" }],
          "a new choice replaces the tool's rule",
        );
        await page.click(`${beta} button[data-decision=ask]`);
        await page.waitForSelector(`${beta} button[aria-pressed=true]`, {
          state: "detached",
          ...wait,
        });
        assert.equal((await client.call("permission.read", {})).rules.length, 2, "rule removed");
        await page.locator(alpha).scrollIntoViewIfNeeded();
        for (const theme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
          await page.waitForTimeout(300); // the theme's colours settle (buttons fade)
          const path = `${dir}/settings-tools-rules-${theme}.png`;
          await page.screenshot({ path });
          assert.ok((await Deno.stat(path)).size > 1000, `${path} is empty`);
        }
        await page.emulateMedia({ colorScheme: "light" });
        await closeSettings(page);

        // The rule holds: the next turn calls the tool without asking.
        await startMessage(page, "call: mcp__pages__alpha {}");
        await waitForAnswer(page, "Result: alpha ran");
        assert.equal(await page.$(PENDING), null, "the rule for the tool let it run unasked");
        const { approvals } = await client.call("approval.list", { status: "pending" });
        assert.deepEqual(approvals, [], "nothing waits for an answer");

        // The server's breaker (one per MCP server) reads as the server in Settings › Health.
        await openSettings(page, "health");
        const breaker = 'dialog.settings .health-section tr[data-breaker="mcp:pages"]';
        await page.waitForSelector(breaker, wait);
        assert.equal(
          (await page.textContent(`${breaker} th`))?.trim(),
          "MCP server pages",
          "named by its server, not its key",
        );
        await page.screenshot({ path: `${dir}/settings-health-mcp.png` });
        await closeSettings(page);
        assert.deepEqual(run.pageErrors, []);
      },
      undefined,
      { preset: null },
    );
    console.log(`screenshots: ${dir}`);
  },
});

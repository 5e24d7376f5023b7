/**
 * Browser test of Settings › Permissions against a real `daedalus serve` (shipped flags,
 * headless Chromium): the default preset and the high-risk switch round-trip through
 * config.yaml; a rule is added through the form, a bad one is refused with the field
 * named and nothing stored; a rule removed in another window makes Remove refuse with
 * `permission_rule_changed` and reload the list; Remove takes the last rule away. A
 * screenshot of the section is saved. Skipped without Chromium.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import type { Page } from "playwright-core";
import { hasChromium, logIn, PAGE_WAIT_MS, waitForCount, withBrowser } from "./_browser.ts";

const wait = { timeout: PAGE_WAIT_MS };
const SECTION = "dialog.settings .permissions-section";

function checked(page: Page, name: string, value: string): Promise<unknown> {
  return page.waitForSelector(`${SECTION} input[name=${name}][value=${value}]:checked`, wait);
}

async function addRule(page: Page, tool: string, pattern: string, decision: string) {
  await page.fill(`${SECTION} form.permission-add input[name=tool]`, tool);
  await page.fill(`${SECTION} form.permission-add input[name=pattern]`, pattern);
  await page.selectOption(`${SECTION} form.permission-add select[name=decision]`, decision);
  await page.click(`${SECTION} form.permission-add button[type=submit]`);
}

Deno.test({
  name: "browser: Settings › Permissions sets the preset, adds and removes rules",
  ignore: !hasChromium,
  fn: async () => {
    const dir = Deno.env.get("BROWSER_SCREENSHOTS_DIR") ??
      await Deno.makeTempDir({ prefix: "daedalus_screenshots_" });
    await Deno.mkdir(dir, { recursive: true });
    await withBrowser(
      async (run) => {
        const { page } = run;
        const client = createHttpClient({ url: run.server.url, token: run.token });
        await logIn(run);
        await page.keyboard.press("Control+,");
        await page.waitForSelector("dialog.settings[open]", wait);
        await page.click("#settings-tab-permissions");
        await checked(page, "permission-preset", "ask");
        await checked(page, "permission-high-risk", "ask");
        await page.waitForSelector(`${SECTION} .permission-rules-empty`, wait);

        // The preset: each option explains itself; a choice is stored in config.yaml.
        const hints = await page.$$eval(
          `${SECTION} .permission-presets .muted`,
          (nodes) => nodes.map((node) => node.textContent ?? ""),
        );
        assert.equal(hints.length, 4, "each preset has its sentence");
        assert.ok(hints.every((hint) => hint.length > 20), `a preset lacks its sentence: ${hints}`);
        await page.click(`${SECTION} input[name=permission-preset][value=workspace_write]`);
        await checked(page, "permission-preset", "workspace_write");
        await page.waitForSelector(`${SECTION}[aria-busy=false]`, wait);
        assert.equal((await client.call("permission.read", {})).preset, "workspace_write");
        await page.click(`${SECTION} input[name=permission-high-risk][value=allow]`);
        await checked(page, "permission-high-risk", "allow");
        await page.waitForSelector(`${SECTION}[aria-busy=false]`, wait);
        assert.equal((await client.call("permission.read", {})).highRiskCommands, "allow");

        // Add: the rule lands in the table and in config.yaml.
        await addRule(page, "process_start", "git status", "allow");
        await waitForCount(page, `${SECTION} .permission-rules tbody tr`, 1);
        assert.deepEqual((await client.call("permission.read", {})).rules, [
          { index: 0, tool: "process_start", pattern: "git status", decision: "allow" },
        ]);
        assert.equal(
          await page.inputValue(`${SECTION} form.permission-add input[name=pattern]`),
          "",
          "an added rule clears the pattern",
        );

        // A bad pattern is refused naming the field; nothing is stored; the input stays.
        await addRule(page, "process_start", "git status && rm -rf x", "allow");
        const alert = `${SECTION} .section-failure`;
        await page.waitForSelector(alert, wait);
        const text = await page.textContent(alert) ?? "";
        assert.match(text, /rule\.pattern/, `the refusal must name the field: ${text}`);
        assert.match(text, /invalid_params/);
        assert.equal((await client.call("permission.read", {})).rules.length, 1);
        assert.equal(
          await page.inputValue(`${SECTION} form.permission-add input[name=pattern]`),
          "git status && rm -rf x",
        );
        // An unknown tool too.
        await addRule(page, "format_disk", "", "deny");
        await page.waitForFunction(
          `document.querySelector(${JSON.stringify(alert)})?.textContent.includes("rule.tool")`,
          undefined,
          wait,
        );

        // Another window changes the list: Remove refuses, the list reloads.
        await client.call("permission.removeRule", {
          index: 0,
          rule: { tool: "process_start", pattern: "git status", decision: "allow" },
        });
        await client.call("permission.addRule", {
          rule: { tool: "group:memory", decision: "deny" },
        });
        await page.click(`${SECTION} .permission-rules button.remove-rule`);
        await page.waitForFunction(
          `document.querySelector(${
            JSON.stringify(alert)
          })?.textContent.includes("permission_rule_changed")`,
          undefined,
          wait,
        );
        await page.waitForSelector(
          `${SECTION} .permission-rules td code:text-is("group:memory")`,
          wait,
        );
        assert.equal((await client.call("permission.read", {})).rules.length, 1, "nothing removed");
        // The refusal is beside the list, in sight of the Remove button that caused it.
        const box = await page.locator(alert).boundingBox();
        const height = page.viewportSize()?.height ?? 0;
        assert.ok(box && box.y >= 0 && box.y + box.height <= height, "the refusal is out of sight");
        await page.screenshot({ path: `${dir}/settings-permissions-refused.png` });

        await addRule(page, "read", "src/**/*.ts", "ask");
        await waitForCount(page, `${SECTION} .permission-rules tbody tr`, 2);
        await page.setViewportSize({ width: 1280, height: 1000 });
        const path = `${dir}/settings-permissions.png`;
        await page.screenshot({ path });
        assert.ok((await Deno.stat(path)).size > 1000, `${path} is empty`);

        // Remove, by the row's accessible name.
        await page.click(`${SECTION} button[aria-label^="Remove rule 1: group:memory"]`);
        await waitForCount(page, `${SECTION} .permission-rules tbody tr`, 1);
        await page.click(`${SECTION} button.remove-rule`);
        await page.waitForSelector(`${SECTION} .permission-rules-empty`, wait);
        const stored = await client.call("permission.read", {});
        assert.deepEqual(stored, {
          preset: "workspace_write",
          highRiskCommands: "allow",
          rules: [],
        });
        assert.equal(
          await page.$(`${SECTION} .section-failure`),
          null,
          "a success clears the error",
        );
        assert.deepEqual(run.pageErrors, []);
        // The runtime's own default (ask), not the browser tests' full_access.
      },
      undefined,
      { preset: null },
    );
    console.log(`screenshots: ${dir}`);
  },
});

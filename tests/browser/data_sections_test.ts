/**
 * Browser test of Settings › Skills, Memory and Profile against a real `daedalus serve`
 * in Debian's Chromium: a skill in the home's skills folder is switched off and on and an
 * invalid one is explained; a memory is created, corrected and forgotten through the UI
 * (the runtime agrees at each step); the profile shows its figures and chart. Skipped
 * when Chromium is not installed.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import {
  hasChromium,
  logIn,
  PAGE_WAIT_MS,
  waitForTextContaining,
  withBrowser,
} from "./_browser.ts";

const wait = { timeout: PAGE_WAIT_MS };

async function addSkill(home: string, folder: string, content: string): Promise<void> {
  await Deno.mkdir(`${home}/skills/${folder}`, { recursive: true });
  await Deno.writeTextFile(`${home}/skills/${folder}/SKILL.md`, content);
}

Deno.test({
  name: "browser: Settings lists skills and their diagnostics, manages memories, shows usage",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      await addSkill(
        run.server.home,
        "greeter",
        '---\nname: greeter\ndescription: "Greets people warmly"\n---\n\nSay hello.\n',
      );
      await addSkill(run.server.home, "broken", "no front matter here\n");
      await logIn(run);

      await page.keyboard.press("Control+,");
      await page.waitForSelector("dialog.settings[open]", wait);
      await page.click("#settings-tab-skills");
      const toggle = page.getByRole("switch", { name: "Enable skill greeter" });
      await toggle.waitFor(wait);
      assert.equal(await toggle.getAttribute("aria-checked"), "true");
      await toggle.click();
      await page.waitForSelector("[role=switch][aria-checked=false]", wait);
      const listed = await client.call("skill.list", {});
      assert.equal(listed.skills.find((s) => s.name === "greeter")?.enabled, false);
      await toggle.click();
      await page.waitForSelector("[role=switch][aria-checked=true]", wait);
      assert.match(await page.textContent(".skills-section") ?? "", /broken/);
      assert.equal(listed.diagnostics.length, 1);
      assert.match(
        await page.textContent(".skills-section") ?? "",
        new RegExp(
          listed.diagnostics[0]!.code,
        ),
      );

      // Memory: create, correct, forget — each reaches the runtime.
      await page.click("#settings-tab-memory");
      await page.getByRole("button", { name: "New memory" }).click();
      const form = page.locator("form.memory-form");
      await form.getByRole("textbox", { name: "Memory text" }).fill("The user prefers tabs");
      await form.getByRole("button", { name: "Save memory" }).click();
      await page.waitForSelector("ul[aria-label=Memories] .memory-row-toggle", wait);
      let memories = await client.call("memory.list", {});
      assert.deepEqual(memories.memories.map((m) => m.preview), ["The user prefers tabs"]);

      await page.getByRole("button", { name: "Correct", exact: true }).click();
      await page.getByRole("textbox", { name: "Corrected text" }).fill("The user prefers spaces");
      await page.getByRole("button", { name: "Save correction" }).click();
      await waitForTextContaining(page, "ul[aria-label=Memories]", "Revision 2");
      memories = await client.call("memory.list", {});
      assert.deepEqual(memories.memories.map((m) => [m.preview, m.revision]), [
        ["The user prefers spaces", 2],
      ]);

      await page.getByRole("button", { name: "Forget", exact: true }).click();
      await page.click("dialog.memory-forget-dialog button:text('Forget memory')");
      await page.waitForFunction(
        "!document.querySelector('ul[aria-label=Memories] .memory-row-toggle')",
        undefined,
        wait,
      );
      memories = await client.call("memory.list", {});
      assert.deepEqual(memories.memories.map((m) => m.state), ["forgotten"]);

      // Usage: the five figures and the chart (the scripted model reports no usage).
      await page.click("#settings-tab-usage");
      await page.waitForSelector("dl[aria-label='Usage figures']", wait);
      const figures = await page.$$eval(
        "dl[aria-label='Usage figures'] .profile-figure",
        (nodes) => nodes.map((node) => node.getAttribute("data-figure")),
      );
      assert.deepEqual(figures, [
        "lifetime",
        "peak",
        "longest-run",
        "current-streak",
        "longest-streak",
      ]);
      await page.waitForSelector("svg[role=img]", wait);
      assert.deepEqual(run.pageErrors, []);
    }),
});

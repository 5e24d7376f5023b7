/**
 * Browser test of agent profiles (issue 21) against a real `daedalus serve` in Debian's
 * Chromium: Settings › Agents copies Build, restricts the copy's tools and saves it (the
 * runtime has the profile as saved), then a thread's header switches the thread to Plan
 * (the runtime binds it, and the binding shows again after a reload). Skipped when
 * Chromium is not installed. Screenshots (light and dark) go to BROWSER_SCREENSHOTS_DIR.
 */
import assert from "node:assert/strict";
import { createHttpClient } from "@daedalus/client";
import { hasChromium, logIn, PAGE_WAIT_MS, sendMessage, withBrowser } from "./_browser.ts";

const wait = { timeout: PAGE_WAIT_MS };
const SECTION = "dialog.settings[open] section.settings-agents";

Deno.test({
  name: "browser: Settings › Agents copies Build with fewer tools; the header switches an agent",
  ignore: !hasChromium,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      const client = createHttpClient({ url: run.server.url, token: run.token });
      const shots = Deno.env.get("BROWSER_SCREENSHOTS_DIR");
      await logIn(run);

      await page.keyboard.press("Control+,");
      await page.waitForSelector("dialog.settings[open]", wait);
      await page.click("#settings-tab-agents");
      await page.waitForSelector(`${SECTION} li[data-agent=plan]`, wait);
      if (shots) await page.screenshot({ path: `${shots}/agents-list-light.png` });
      await page.click(`${SECTION} li[data-agent=build] button:text-is("Copy")`);
      await page.waitForSelector(`${SECTION} form.agent-editor`, wait);
      assert.equal(await page.inputValue(`${SECTION} input[name=id]`), "build-copy");
      await page.fill(`${SECTION} input[name=name]`, "Careful build");
      await page.selectOption(`${SECTION} select[name=model]`, "scripted/scripted-model");
      await page.uncheck(`${SECTION} input[name=tools-all]`);
      for (const tool of ["write", "edit", "process_start"]) {
        await page.uncheck(`${SECTION} input[name=tools][value=${tool}]`);
      }
      if (shots) {
        await page.emulateMedia({ colorScheme: "dark" });
        await page.screenshot({ path: `${shots}/agents-editor-dark.png` });
        await page.emulateMedia({ colorScheme: "light" });
      }
      await page.click(`${SECTION} button[type=submit]`);
      await page.waitForSelector(`${SECTION} li[data-agent=build-copy]`, wait);
      assert.match(
        await page.textContent(`${SECTION} li[data-agent=build-copy]`) ?? "",
        /Careful build/,
      );
      const { agent } = await client.call("agent.get", { agentId: "build-copy" });
      assert.equal(agent.profile.name, "Careful build");
      const tools = agent.profile.tools ?? [];
      assert.ok(tools.includes("read") && tools.includes("grep"), `kept ${tools}`);
      for (const tool of ["write", "edit", "process_start"]) {
        assert.ok(!tools.includes(tool), `${tool} was not taken out`);
      }
      assert.equal(agent.profile.permission, "full_access", "the copy keeps Build's preset");
      assert.deepEqual(agent.profile.model, { providerId: "scripted", modelId: "scripted-model" });
      if (shots) await page.screenshot({ path: `${shots}/agents-saved-light.png` });
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.settings[open]", { state: "detached", ...wait });

      await sendMessage(page, "hello", "Answer to: hello");
      const header = page.locator("header.conversation-header select.agent-switch");
      await header.waitFor(wait);
      assert.equal(await header.inputValue(), "build", "a new thread runs the default agent");
      await header.selectOption("plan");
      const { threads } = await client.call("thread.list", { limit: 1 });
      const threadId = threads[0]!.id;
      await page.waitForFunction(
        `document.querySelector("header.conversation-header select.agent-switch")?.value === "plan"`,
        undefined,
        wait,
      );
      let bound = null;
      for (let tries = 0; tries < 50 && bound !== "plan"; tries++) {
        bound = (await client.call("thread.get", { threadId })).thread.agentId;
        if (bound !== "plan") await new Promise((done) => setTimeout(done, 100));
      }
      assert.equal(bound, "plan", "the runtime did not bind the thread to Plan");
      if (shots) {
        await page.screenshot({ path: `${shots}/agents-header-light.png` });
        await page.emulateMedia({ colorScheme: "dark" });
        await page.screenshot({ path: `${shots}/agents-header-dark.png` });
        await page.emulateMedia({ colorScheme: "light" });
      }
      await page.reload();
      await page.waitForFunction(
        `document.querySelector("header.conversation-header select.agent-switch")?.value === "plan"`,
        undefined,
        wait,
      );
    }),
});

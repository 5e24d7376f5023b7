/**
 * Browser tests of the composer against a real `daedalus serve` (the scripted fixture
 * model) in Debian's Chromium: steer and stop while a Run streams, a tool call's card,
 * per-thread drafts that survive a reload, and the diff view of a write. Skipped when Chromium is not installed.
 */
import assert from "node:assert/strict";
import {
  hasChromium,
  logIn,
  openToolRow,
  PAGE_WAIT_MS,
  sendMessage,
  startMessage,
  waitConnected,
  waitForAnswer,
  waitForCount,
  waitForTextContaining,
  withBrowser,
} from "./_browser.ts";

const ignore = !hasChromium;

Deno.test({
  name: "browser: steering a running Run reaches its next model call; the tool card shows",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      // "slow tool": the first model call streams for ~2 s, then calls `echo`.
      await startMessage(page, "slow tool demo");
      await page.waitForSelector("form.composer button:text('Steer')", { timeout: PAGE_WAIT_MS });
      await page.fill("form.composer textarea", "steer: also this");
      await page.click("form.composer button[type=submit]");
      // The composer empties once the steer is accepted.
      await page.waitForFunction(
        "document.querySelector('form.composer textarea')?.value === ''",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      await waitForAnswer(page, "(steer: also this)");
      await waitForAnswer(page, "Tool said: echo: slow tool demo");
      const row = await page.textContent(".tool-row[data-tool=echo]");
      assert.match(row ?? "", /echo/);
      // The steer is shown as a user message of the same Run.
      const users = await page.$$eval(
        "article.message.role-user",
        (articles) => articles.map((a) => a.textContent ?? ""),
      );
      assert.ok(users.some((text) => text.includes("steer: also this")), users.join(" | "));
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: Stop cancels the streaming Run, its outcome explains why, Try again resends",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await startMessage(page, "slow answer");
      await waitForTextContaining(page, "article.message.role-assistant", "chunk1");
      await page.click("form.composer button:text('Stop')");
      const outcome = await page.waitForSelector(".run-outcome.status-cancelled", {
        timeout: PAGE_WAIT_MS,
      });
      assert.match(await outcome.textContent() ?? "", /run\.cancelled|cancelled/);
      // Back to Send; the stream did not run to its end.
      await page.waitForSelector("form.composer button:text('Send')", { timeout: PAGE_WAIT_MS });
      const answer = await page.textContent("article.message.role-assistant");
      assert.ok(!(answer ?? "").includes("chunk19"), `the run finished anyway: ${answer}`);

      // "Try again" sends the same message as a new turn; then it is no longer offered.
      await page.click(".run-outcome button.send-again");
      await waitForCount(page, "article.message.role-user", 2);
      await page.waitForFunction(
        "[...document.querySelectorAll('article.message.role-assistant')]" +
          ".some((node) => node.textContent.includes('chunk19'))",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      assert.deepEqual(
        await page.$$eval("article.message.role-user p.text", (nodes) =>
          nodes.map((node) => node.textContent)),
        ["slow answer", "slow answer"],
      );
      assert.equal(await page.$(".run-outcome button.send-again"), null);
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: each thread keeps its own draft across a reload",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await sendMessage(page, "first", "Answer to: first");
      await page.fill("form.composer textarea", "draft of the first thread");
      await page.click("nav.sidebar button.new-thread");
      // The start screen has its own (empty) draft; no thread is made before a message.
      await page.waitForFunction(
        "document.querySelector('form.composer textarea')?.value === ''",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      await page.fill("form.composer textarea", "draft of a new thread");
      assert.equal(await page.$$eval("nav.sidebar button.thread", (b) => b.length), 1);
      await page.reload();
      await waitConnected(page);
      await page.waitForFunction(
        "document.querySelector('form.composer textarea')?.value === 'draft of a new thread'",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      await page.click("nav.sidebar button.thread >> nth=0");
      await page.waitForFunction(
        "document.querySelector('form.composer textarea')?.value === 'draft of the first thread'",
        undefined,
        { timeout: PAGE_WAIT_MS },
      );
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: a write's card opens its before/after diff",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await startMessage(page, "write: notes.txt hello <b>diff</b>");
      await waitForAnswer(page, "Wrote it.");
      await openToolRow(page, "write");
      await page.click("section.tool-card button.diff-button");
      const dialog = await page.waitForSelector("dialog.diff-dialog[open] table.diff", {
        timeout: PAGE_WAIT_MS,
      });
      const added = await dialog.$$eval(
        "tr.diff-add",
        (rows) => rows.map((row) => row.textContent ?? ""),
      );
      // Shown as text: the markup in the file is not rendered.
      assert.deepEqual(added, ["1+hello <b>diff</b>"]);
      assert.equal(await page.$("dialog.diff-dialog b"), null);
      assert.match(await page.textContent("dialog.diff-dialog h2") ?? "", /notes\.txt/);
      await page.keyboard.press("Escape");
      await page.waitForSelector("dialog.diff-dialog", {
        state: "detached",
        timeout: PAGE_WAIT_MS,
      });
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name: "browser: a failed tool row shows its message, with its code under Details",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await startMessage(page, 'call: read {"path":"missing.txt"}');
      const row = ".tool-row[data-tool=read].status-failed";
      const note = await page.waitForSelector(`${row} > .tool-row-error`, {
        timeout: PAGE_WAIT_MS,
      });
      const message = await note.textContent() ?? "";
      assert.match(message, /missing\.txt/, `the tool's own words: ${message}`);
      assert.doesNotMatch(message, /^Tool read failed$/);
      assert.match(
        await page.textContent(`${row} .tool-row-line`) ?? "",
        /Read.*missing\.txt.*failed/,
      );
      // the code is not on the row; it is under Details once the row is opened
      assert.equal(await page.$(`${row} .tool-error code`), null);
      await openToolRow(page, "read");
      await page.click(".tool-card .tool-error summary");
      const code = await page.textContent(".tool-card .tool-error details code");
      assert.match(code ?? "", /^[a-z_]+$/, `a stable code under Details: ${code}`);
      assert.deepEqual(run.pageErrors, []);
    }),
});

Deno.test({
  name:
    "browser: the composer grows with its text up to half the window; messages show when they were written",
  ignore,
  fn: () =>
    withBrowser(async (run) => {
      const { page } = run;
      await logIn(run);
      await sendMessage(page, "hello", "Answer to: hello");
      const time = await page.waitForSelector("article.message.role-user time.message-time", {
        timeout: PAGE_WAIT_MS,
      });
      assert.equal(await time.textContent(), "now");
      assert.match(await time.getAttribute("title") ?? "", /\d{4}/, "the exact time on hover");
      assert.ok(Date.parse(await time.getAttribute("datetime") ?? "") > 0);

      const box = page.locator("form.composer textarea");
      const empty = (await box.boundingBox())!.height;
      await box.fill(Array.from({ length: 8 }, (_, i) => `line ${i}`).join("\n"));
      const eight = (await box.boundingBox())!.height;
      assert.ok(eight > empty * 1.5, `it grows: ${empty} → ${eight}`);
      await box.fill(Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n"));
      const most = (await box.boundingBox())!.height;
      const viewport = page.viewportSize()!.height;
      assert.ok(most <= viewport / 2 + 1, `at most half the window: ${most} of ${viewport}`);
      assert.deepEqual(run.pageErrors, []);
    }),
});

/**
 * Per-key CORS as a browser enforces it: headless Chromium opens a page on a second
 * loopback origin (its own small server) and calls the shipped runtime's Dify API with a
 * key whose `allowedOrigins` names that origin: a GET and a JSON POST (which needs a
 * preflight) both answer. A page on a third origin, not in the list, gets the browser's
 * refusal (the fetch rejects) although its request carries the same valid key. Needs no
 * built PWA (the pages are the test's own). Skipped without Chromium.
 *
 * @module
 */
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { createHttpClient } from "@daedalus/client";
import { makeTempHome, startFixture } from "../e2e/_harness.ts";
import { CHROMIUM_ARGS, CHROMIUM_PATH, hasChromium, PAGE_WAIT_MS } from "./_browser.ts";

/** Serves an empty HTML page on a fresh loopback port: an origin of its own. */
function pageServer(): Deno.HttpServer<Deno.NetAddr> & { origin: string } {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response("<!doctype html><title>page</title>", {
        headers: { "Content-Type": "text/html" },
      }),
  );
  return Object.assign(server, { origin: `http://127.0.0.1:${server.addr.port}` });
}

/** What the page's script reports of its calls. */
interface Calls {
  parameters: string;
  chat: string;
}

const CALLS = `async ([base, key]) => {
  const outcome = async (call) => {
    try {
      const response = await call();
      const body = await response.json();
      return response.status + " " + (body.answer ?? Object.keys(body)[0]);
    } catch (error) {
      return "refused: " + error.name;
    }
  };
  const headers = { Authorization: "Bearer " + key };
  return {
    parameters: await outcome(() => fetch(base + "/parameters?user=web", { headers })),
    chat: await outcome(() => fetch(base + "/chat-messages", {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ inputs: {}, query: "hello", user: "web", response_mode: "blocking" }),
    })),
  };
}`;

Deno.test({
  name:
    "browser: a page on an allowed origin calls the Dify API with its key; another origin is blocked",
  ignore: !hasChromium,
  fn: async () => {
    await using home = await makeTempHome();
    await using server = await startFixture(home);
    const allowed = pageServer();
    const other = pageServer();
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS],
    });
    try {
      const client = createHttpClient({ url: server.url, token: await server.token() });
      const created = await client.call("gateway.key.create", {
        name: "web",
        profile: {
          providerId: "scripted",
          modelId: "scripted-model",
          permission: "full_access",
          allowedOrigins: [`${allowed.origin}/`],
        },
      });
      const base = new URL("dify/v1", server.url).href;
      const page = await browser.newPage();
      page.setDefaultTimeout(PAGE_WAIT_MS);

      await page.goto(`${allowed.origin}/`);
      const granted = await page.evaluate<Calls>(
        `(${CALLS})(${JSON.stringify([base, created.key])})`,
      );
      assert.match(granted.parameters, /^200 opening_statement$/, granted.parameters);
      assert.match(granted.chat, /^200 Answer to: hello$/, granted.chat);

      await page.goto(`${other.origin}/`);
      const blocked = await page.evaluate<Calls>(
        `(${CALLS})(${JSON.stringify([base, created.key])})`,
      );
      assert.deepEqual(blocked, { parameters: "refused: TypeError", chat: "refused: TypeError" });
      // The preflight failed, so the POST never ran: only the allowed page's chat exists.
      const threads = await client.call("thread.list", {});
      assert.equal(threads.threads.length, 1, "the blocked page's chat reached the runtime");
    } finally {
      await browser.close();
      await allowed.shutdown();
      await other.shutdown();
    }
  },
});

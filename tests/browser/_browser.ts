/**
 * The browser-test harness: the built app (`app/dist`, built once when missing), the
 * scripted `daedalus serve` fixture in a temp home, and Debian's Chromium driven by
 * playwright-core in a fresh persistent profile. Everything is torn down in `finally`
 * blocks: the browser is closed, the server killed, the temp directories removed.
 *
 * Without `/usr/bin/chromium` the tests are skipped (`Deno.test({ ignore })`), never
 * failed; `.ci/run` installs it with apt-get when `tests/browser/.requires-chromium`
 * exists.
 *
 * Callbacks run in the page are passed as strings, so the tests type-check without the
 * DOM library (the root `deno check` uses `deno.window` only).
 *
 * @module
 */
import type { PermissionPreset } from "@daedalus/protocol";
import { readPermissions, writePermissions } from "@daedalus/storage";
import {
  type BrowserContext,
  chromium,
  type Frame,
  type JSHandle,
  type Page,
} from "playwright-core";
import { createHttpClient } from "@daedalus/client";
import {
  makeTempHome,
  REPO_ROOT,
  type ServerProcess,
  startFixture,
  type TempHome,
} from "../e2e/_harness.ts";
import { freshLoginUrl } from "../e2e/_login.ts";

/** Debian's Chromium. */
export const CHROMIUM_PATH = "/usr/bin/chromium";
/** Generous wait for anything in the page (selectors, functions, navigations). */
export const PAGE_WAIT_MS = 20_000;

function fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Whether Chromium is installed; the browser tests are skipped without it. */
export const hasChromium: boolean = fileExists(CHROMIUM_PATH);
if (!hasChromium) {
  console.warn(
    `tests/browser: SKIPPED — ${CHROMIUM_PATH} is missing ` +
      "(install it with `apt-get install -y chromium`; .ci/run does this)",
  );
}

/** The flags that make Debian's Chromium quiet and headless in a container. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let built: Promise<void> | null = null;

/** How often the CSP-safe `waitForFunction` looks again. */
const WAIT_POLL_MS = 25;

let waitsPatched = false;

/**
 * Makes `waitForFunction` work under the app's Content-Security-Policy. Playwright polls
 * its predicate with `globalThis.eval` in the page, which `script-src 'self'` (rightly)
 * forbids once the first, DevTools-run check has passed; every browser test would then
 * fail on its first wait that has to wait. This polls `frame.evaluate` instead: each call
 * runs over the DevTools protocol, which the page's CSP does not govern. It replaces the
 * method on Playwright's Frame prototype (so `page.waitForFunction` and every frame of
 * every page get it) and keeps its contract: the first truthy value's handle, the
 * predicate's own errors, a timeout error naming what was awaited.
 *
 * @param frame any frame, to reach the prototype
 */
function patchWaitForFunction(frame: Frame): void {
  if (waitsPatched) return;
  waitsPatched = true;
  const prototype = Object.getPrototypeOf(frame) as Frame;
  prototype.waitForFunction = async function <R, Arg>(
    this: Frame,
    pageFunction: string | ((arg: Arg) => R),
    arg?: Arg,
    options: { timeout?: number; polling?: number | "raf" } = {},
  ): Promise<JSHandle<R>> {
    const timeout = options.timeout ?? PAGE_WAIT_MS;
    const interval = typeof options.polling === "number" ? options.polling : WAIT_POLL_MS;
    const deadline = Date.now() + timeout;
    // deno-lint-ignore no-explicit-any
    const evaluate = (how: "evaluate" | "evaluateHandle") => (this[how] as any)(pageFunction, arg);
    while (true) {
      try {
        if (await evaluate("evaluate")) return await evaluate("evaluateHandle");
      } catch (error) {
        // A navigation replaced the document under the check: look at the new one.
        if (!/Execution context was destroyed|navigat/i.test(String(error))) throw error;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `waitForFunction: Timeout ${timeout}ms exceeded waiting for ${String(pageFunction)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, interval));
    }
  } as Frame["waitForFunction"];
}

/** Builds `app/dist` once per test process when it is missing (`scripts/build_app.ts`). */
export function ensureAppBuilt(): Promise<void> {
  built ??= (async () => {
    if (fileExists(`${REPO_ROOT}app/dist/index.html`)) return;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${REPO_ROOT}scripts/build_app.ts`, "--if-missing"],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    if (output.code !== 0 || !fileExists(`${REPO_ROOT}app/dist/index.html`)) {
      throw new Error(`the app build failed:\n${new TextDecoder().decode(output.stderr)}`);
    }
  })();
  return built;
}

/**
 * Makes the fixture's scripted model pickable. The fixture serves the scripted provider
 * ahead of the config but does not list it in `model.list`, so the app's model picker
 * would be empty; a configured provider with the same id lists `scripted/scripted-model`
 * while Runs still resolve to the scripted provider (its base URL is never contacted).
 *
 * @param url the server
 * @param token its access token
 */
async function listScriptedModel(url: string, token: string): Promise<void> {
  const client = createHttpClient({ url, token });
  await client.call("provider.configure", {
    kind: "custom",
    providerId: "scripted",
    displayName: "Scripted",
    baseUrl: "http://127.0.0.1:9/v1",
    models: [{ id: "scripted-model", displayName: "Scripted model" }],
  });
}

/** What a browser test gets. */
export interface BrowserRun {
  /** The running fixture server. */
  server: ServerProcess;
  /** Its access token (from `<home>/auth.json`). */
  token: string;
  /** The persistent browser context. */
  context: BrowserContext;
  /** Its profile directory (removed after the test; a test may close the context to read it). */
  profileDir: string;
  /** Its first page (English locale). */
  page: Page;
  /** Uncaught page errors so far, for failure messages. */
  pageErrors: string[];
  /**
   * Content-Security-Policy violations Chromium reported on `page`'s console so far. The
   * run fails when any is left at the end: the app must work under its own CSP.
   */
  cspViolations: string[];
  /**
   * Kills the server (SIGKILL, a crash) and starts it again on the same home and port;
   * `server` is the new one afterwards. `whileDown` runs between the two (the page sees
   * the runtime gone for as long as it takes).
   */
  crashAndRestart(whileDown?: () => Promise<void>): Promise<void>;
}

/** How {@linkcode withBrowser} prepares the run. */
export interface BrowserRunOptions {
  /**
   * A true first run: no provider configured and the first-run wizard not marked
   * finished, so it shows. Otherwise the scripted model is listed and the wizard is
   * marked finished before any page script runs, so it never covers the app.
   */
  onboarding?: boolean;
  /** More environment variables for the fixture server (and its restarts). */
  env?: Record<string, string>;
  /** Runs on the fresh home before the server starts (seeding `state.db`). */
  beforeStart?: (home: TempHome) => Promise<void>;
  /**
   * The default preset written to config.yaml (default `full_access`: the PWA's turns name
   * none, and tests of other features must not wait for approvals); null leaves the
   * runtime's own default, `ask`.
   */
  preset?: PermissionPreset | null;
}

/** The app's localStorage key for the wizard's record (`app/src/state/onboarding.ts`). */
const ONBOARDING_STORAGE_KEY = "daedalus.onboarding";

/**
 * Runs `body` against a fresh fixture server and a fresh Chromium profile.
 *
 * @param body the test
 * @param viewport the page size
 * @param options what kind of run
 */
export async function withBrowser(
  body: (run: BrowserRun) => Promise<void>,
  viewport = { width: 1280, height: 800 },
  options: BrowserRunOptions = {},
): Promise<void> {
  const env = options.env ?? {};
  await ensureAppBuilt();
  await using home = await makeTempHome();
  await options.beforeStart?.(home);
  const preset = options.preset === undefined ? "full_access" : options.preset;
  if (preset !== null) {
    const permissions = await readPermissions(`${home.home}/config.yaml`);
    await writePermissions(`${home.home}/config.yaml`, { ...permissions, preset });
  }
  const servers = [await startFixture(home, env)];
  await using _servers = {
    [Symbol.asyncDispose]: async () => {
      for (const server of servers) await server[Symbol.asyncDispose]();
    },
  };
  const server = servers[0]!;
  const token = await server.token();
  if (!options.onboarding) await listScriptedModel(server.url, token);
  const profile = await Deno.makeTempDir({ prefix: "daedalus_chromium_" });
  let context: BrowserContext | null = null;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS],
      locale: "en-US",
      viewport,
    });
    context.setDefaultTimeout(PAGE_WAIT_MS);
    if (!options.onboarding) {
      // Runs before the app's own scripts on every page load; about:blank has no storage.
      await context.addInitScript(
        `try { localStorage.setItem(${JSON.stringify(ONBOARDING_STORAGE_KEY)}, ` +
          `'{"completed":true,"userName":null}') } catch {}`,
      );
    }
    const page = context.pages()[0] ?? await context.newPage();
    patchWaitForFunction(page.mainFrame());
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    const cspViolations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    try {
      const run: BrowserRun = {
        server,
        token,
        context,
        profileDir: profile,
        page,
        pageErrors,
        cspViolations,
        crashAndRestart: async (whileDown) => {
          run.server.child.kill("SIGKILL");
          await run.server.child.exit();
          await whileDown?.();
          const next = await startFixture(home, env, run.server.port);
          servers.push(next);
          run.server = next;
        },
      };
      await body(run);
      if (cspViolations.length > 0) {
        throw new Error(`the app broke its own CSP:\n${cspViolations.join("\n")}`);
      }
    } catch (error) {
      // The rendered app and the page's errors make a failed wait readable.
      const html = await page.evaluate<string>(
        "document.getElementById('app')?.innerHTML ?? document.documentElement.outerHTML",
      ).catch((why) => `(no page: ${why})`);
      throw new Error(
        `${error instanceof Error ? error.message : error}\n--- #app ---\n${html}` +
          `\n--- page errors ---\n${pageErrors.join("\n")}\n` +
          servers.map((s) => s.child.describe()).join("\n"),
        { cause: error },
      );
    }
  } finally {
    await context?.close();
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

/**
 * Retries `attempt` (each bounded by its own waits) until it succeeds or the overall
 * deadline passes. `deno task test --parallel` runs `tests/build_app_test.ts` at the same
 * time, and vite empties `app/dist` while it rebuilds: for a few seconds `index.html`,
 * the assets or `sw.js` can be 404. Loading the page again after that heals it.
 *
 * @param attempt one try; it gets the try's number (0 first)
 */
async function retrying(attempt: (n: number) => Promise<void>): Promise<void> {
  const deadline = Date.now() + 3 * PAGE_WAIT_MS;
  for (let n = 0;; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/**
 * Opens a fresh login URL (a new one-time code each try, as `daedalus login` mints it)
 * and waits until the app is connected: the connection banner is gone (the app renders
 * none while connected) and the sidebar's thread list loaded.
 *
 * @param run the browser run
 */
export async function logIn(run: BrowserRun): Promise<void> {
  await retrying(async () => {
    await run.page.goto(await freshLoginUrl(run.server));
    await waitConnected(run.page);
  });
}

/**
 * Waits for the connected state: the thread list (loaded only after the socket is
 * connected) and no connection banner.
 *
 * @param page the page
 */
export async function waitConnected(page: Page): Promise<void> {
  // attached, not visible: on a phone the sidebar is a closed drawer
  await page.waitForSelector("nav.sidebar", { state: "attached", timeout: PAGE_WAIT_MS });
  await page.waitForFunction(
    "document.querySelector('nav.sidebar p.muted:not(:empty)')?.textContent !== 'Loading threads…'" +
      " && document.querySelector('.banner') === null",
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
}

/**
 * Waits until the service worker controls the page; when it does not within a few
 * seconds (it activated without claiming the page, or its registration met a rebuild),
 * reloads and waits again.
 *
 * @param page the page (connected)
 */
export async function waitControlled(page: Page): Promise<void> {
  await retrying(async (n) => {
    if (n > 0) {
      await page.reload();
      await waitConnected(page);
    }
    await page.waitForFunction("navigator.serviceWorker.controller !== null", undefined, {
      timeout: 5_000,
    });
  });
}

/**
 * Waits until `selector` matches exactly `count` elements.
 *
 * @param page the page
 * @param selector a CSS selector
 * @param count how many elements
 */
export async function waitForCount(page: Page, selector: string, count: number): Promise<void> {
  await page.waitForFunction(
    `document.querySelectorAll(${JSON.stringify(selector)}).length === ${count}`,
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
}

/**
 * Waits until the first element `selector` matches has exactly `text` as its text.
 *
 * @param page the page
 * @param selector a CSS selector
 * @param text the whole expected `textContent`
 */
export async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    `document.querySelector(${JSON.stringify(selector)})?.textContent === ${JSON.stringify(text)}`,
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
}

/**
 * Waits until the text of the first element `selector` matches contains `part`.
 *
 * @param page the page
 * @param selector a CSS selector
 * @param part the expected part of its `textContent`
 */
export async function waitForTextContaining(
  page: Page,
  selector: string,
  part: string,
): Promise<void> {
  await page.waitForFunction(
    `document.querySelector(${JSON.stringify(selector)})?.textContent` +
      `.includes(${JSON.stringify(part)}) === true`,
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
}

/**
 * Creates a thread through the UI and waits until its composer has the scripted model
 * selected.
 *
 * @param page the page (connected)
 */
export async function openNewThread(page: Page): Promise<void> {
  await page.click("nav.sidebar button.new-thread");
  await page.waitForSelector("form.composer textarea", { timeout: PAGE_WAIT_MS });
  // The model picker fills from `model.list`; the scripted model is the only one.
  await page.waitForFunction(
    "document.querySelector('form.composer select')?.value.startsWith('scripted/') === true",
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
}

/**
 * Creates a thread through the UI and sends `text` with the selected (scripted) model,
 * without waiting for the answer.
 *
 * @param page the page (connected)
 * @param text the message
 */
export async function startMessage(page: Page, text: string): Promise<void> {
  await openNewThread(page);
  await page.fill("form.composer textarea", text);
  await page.click("form.composer button[type=submit]");
}

/**
 * Waits until an assistant message contains `answer`.
 *
 * @param page the page
 * @param answer the expected text
 */
export async function waitForAnswer(page: Page, answer: string): Promise<void> {
  await page.waitForFunction(
    // The article's text (its header says who, the body may be plain text or Markdown).
    `[...document.querySelectorAll('article.message.role-assistant')]` +
      `.some((a) => a.textContent.includes(${JSON.stringify(answer)}))`,
    undefined,
    { timeout: PAGE_WAIT_MS },
  );
}

/**
 * Creates a thread through the UI, sends `text` with the selected (scripted) model and
 * waits for the assistant's final text.
 *
 * @param page the page (connected)
 * @param text the message
 * @param answer the expected assistant text
 */
export async function sendMessage(page: Page, text: string, answer: string): Promise<void> {
  await startMessage(page, text);
  await waitForAnswer(page, answer);
}

/**
 * Opens the (last) compact row of a tool's call, so its details (arguments, output,
 * diff, undo, open file, process controls) are on the page; a row already open stays
 * open.
 *
 * @param page the page
 * @param toolId the tool whose row to open (its `data-tool`)
 */
export async function openToolRow(page: Page, toolId: string): Promise<void> {
  const line = page.locator(`.tool-row[data-tool="${toolId}"] > .tool-row-line`).last();
  await line.waitFor({ timeout: PAGE_WAIT_MS });
  if (await line.getAttribute("aria-expanded") !== "true") await line.click();
  await page.locator(`.tool-row[data-tool="${toolId}"].open > .tool-row-details`).last()
    .waitFor({ timeout: PAGE_WAIT_MS });
}

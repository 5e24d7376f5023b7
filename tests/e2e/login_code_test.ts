/**
 * The login URL a spawned runtime prints carries a one-time code, never the access
 * token; `deno task login` (run with exactly the flags deno.json gives it) prints a fresh
 * one from the running runtime; each code signs in once.
 */
import assert from "node:assert/strict";
import { makeTempHome, REPO_ROOT, type ServerProcess, startFixture, WAIT_MS } from "./_harness.ts";
import { loginCodeOf, printedLoginUrl } from "./_login.ts";

/** The flags of deno.json's `login` task: what `deno task login` really grants. */
async function loginTaskFlags(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}deno.json`)) as {
    tasks: Record<string, string>;
  };
  const words = (config.tasks.login ?? "").split(/\s+/);
  const script = words.indexOf("packages/runtime/main.ts");
  assert.deepEqual(words.slice(0, 2), ["deno", "run"], `the login task: ${config.tasks.login}`);
  assert.equal(words[script + 1], "login");
  const flags = words.slice(2, script);
  assert.ok(!flags.includes("-A") && !flags.includes("--allow-all"), "login needs no -A");
  assert.ok(!flags.some((flag) => /^--allow-(write|run|ffi)/.test(flag)), flags.join(" "));
  return flags;
}

/** Runs `deno task login`'s command with extra arguments. */
async function runLoginTask(args: string[], env: Record<string, string>) {
  const flags = await loginTaskFlags();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, `${REPO_ROOT}packages/runtime/main.ts`, "login", ...args],
    cwd: REPO_ROOT,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(WAIT_MS),
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

async function tradeCode(server: ServerProcess, code: string) {
  const response = await fetch(`${server.url}auth/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url.replace(/\/$/, "") },
    body: JSON.stringify({ code }),
  });
  const body = await response.text();
  return { status: response.status, cookie: response.headers.get("set-cookie"), body };
}

Deno.test("the printed login URL carries a code that signs in once; the token is never printed", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const url = await printedLoginUrl(server);
  const token = await server.token();
  assert.ok(url.startsWith(`${server.url}#code=`), url);
  assert.ok(!server.child.stderr.includes(token), "the token is not on stderr");
  assert.ok(!server.child.stdout.includes(token), "the token is not on stdout");
  const first = await tradeCode(server, loginCodeOf(url));
  assert.equal(first.status, 204, first.body);
  assert.match(first.cookie ?? "", /^daedalus_session=[0-9a-f]{64};/);
  const again = await tradeCode(server, loginCodeOf(url));
  assert.equal(again.status, 401, "the same code a second time");
  assert.equal(JSON.parse(again.body).error.code, "login_code_invalid");
});

Deno.test("deno task login prints a fresh one-time URL from the running runtime", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const token = await server.token();
  const printed = await printedLoginUrl(server);
  const login = await runLoginTask(["--port", String(server.port)], home.env());
  assert.equal(login.code, 0, login.stderr);
  const url = login.stdout.trim();
  assert.ok(url.startsWith(`${server.url}#code=`), `stdout is the URL: ${login.stdout}`);
  assert.notEqual(loginCodeOf(url), loginCodeOf(printed), "a new code each time");
  assert.match(login.stderr, /works once/);
  assert.ok(!`${login.stdout}${login.stderr}`.includes(token), "the token is never printed");
  assert.equal((await tradeCode(server, loginCodeOf(url))).status, 204);
  assert.equal((await tradeCode(server, loginCodeOf(url))).status, 401);
  assert.equal(
    (await tradeCode(server, loginCodeOf(printed))).status,
    204,
    "the start-up code still works until it is used",
  );
});

Deno.test("deno task login finds a runtime started on port 0 by the address it published", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home, {}, 0);
  const login = await runLoginTask([], { ...home.env(), DAEDALUS_PORT: "0" });
  assert.equal(login.code, 0, login.stderr);
  const url = login.stdout.trim();
  assert.ok(url.startsWith(`${server.url}#code=`), `stdout is the URL: ${login.stdout}`);
  assert.equal((await tradeCode(server, loginCodeOf(url))).status, 204);
});

Deno.test("deno task login without a running runtime says how to start one", async () => {
  await using home = await makeTempHome();
  {
    // The home needs an auth.json; a runtime that started and stopped leaves one.
    await using server = await startFixture(home);
    server.child.kill("SIGTERM");
    await server.child.exit();
  }
  const login = await runLoginTask(["--port", "9"], home.env());
  assert.equal(login.code, 1, login.stderr);
  assert.equal(login.stdout, "", "nothing on stdout");
  assert.match(
    login.stderr,
    /No Daedalus runtime answers at http:\/\/127\.0\.0\.1:9.*deno task start/,
  );
  assert.match(login.stderr, /\(runtime_unreachable\)/);
});

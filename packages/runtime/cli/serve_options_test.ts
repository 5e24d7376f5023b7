import assert from "node:assert/strict";
import { OptionError, readServeOptions } from "./serve_options.ts";

const env = { HOME: "/home/someone" };
const flags = (entries: [string, string][] = []) => new Map(entries);

Deno.test("defaults: loopback, port 7420, ~/.daedalus, 6 workers", () => {
  const options = readServeOptions(flags(), env);
  assert.deepEqual(options, {
    host: "127.0.0.1",
    port: 7420,
    home: "/home/someone/.daedalus",
    workspacesRoot: "/home/someone/Documents/Daedalus",
    workers: 6,
    subagentMaxDepth: 2,
    loopback: true,
    httpHeaderReadTimeoutMs: 10_000,
    httpBodyReadTimeoutMs: 60_000,
    breakerOpenMs: null,
  });
});

Deno.test("variables stand in for flags, and a flag wins over its variable", () => {
  const fromEnv = readServeOptions(flags(), {
    ...env,
    DAEDALUS_PORT: "0",
    DAEDALUS_HOME: "/tmp/h",
    DAEDALUS_HOST: "localhost",
    DAEDALUS_AGENT_WORKERS: "1",
    DAEDALUS_HTTP_HEADER_TIMEOUT_MS: "500",
    DAEDALUS_HTTP_BODY_TIMEOUT_MS: "700",
    DAEDALUS_BREAKER_OPEN_MS: "1500",
  });
  assert.deepEqual([fromEnv.port, fromEnv.home, fromEnv.host, fromEnv.workers], [
    0,
    "/tmp/h",
    "localhost",
    1,
  ]);
  assert.deepEqual([fromEnv.httpHeaderReadTimeoutMs, fromEnv.httpBodyReadTimeoutMs], [500, 700]);
  assert.equal(fromEnv.breakerOpenMs, 1500, "DAEDALUS_BREAKER_OPEN_MS");
  const flagged = readServeOptions(
    flags([["port", "9000"], ["home", "/tmp/x"], ["host", "0.0.0.0"]]),
    {
      ...env,
      DAEDALUS_PORT: "0",
      DAEDALUS_HOME: "/tmp/h",
    },
  );
  assert.deepEqual([flagged.port, flagged.home, flagged.host, flagged.loopback], [
    9000,
    "/tmp/x",
    "0.0.0.0",
    false,
  ]);
});

Deno.test("bad values stop start-up naming the value and the range", () => {
  const cases: [Map<string, string>, Record<string, string>, RegExp][] = [
    [
      flags(),
      { DAEDALUS_AGENT_WORKERS: "0" },
      /DAEDALUS_AGENT_WORKERS="0" is not an integer from 1 to 8/,
    ],
    [flags(), { DAEDALUS_AGENT_WORKERS: "9" }, /from 1 to 8/],
    [flags(), { DAEDALUS_AGENT_WORKERS: "two" }, /"two"/],
    [
      flags(),
      { DAEDALUS_PORT: "70000" },
      /DAEDALUS_PORT="70000" is not an integer from 0 to 65535/,
    ],
    [flags([["port", "-1"]]), {}, /--port="-1"/],
    [flags([["port", "1.5"]]), {}, /--port/],
    [flags([["verbose", "1"]]), {}, /Unknown option --verbose/],
    [flags([["host", "a b"]]), {}, /Host "a b"/],
    [
      flags(),
      { DAEDALUS_HTTP_HEADER_TIMEOUT_MS: "50" },
      /DAEDALUS_HTTP_HEADER_TIMEOUT_MS="50" is not an integer from 100 to 3600000/,
    ],
    [flags(), { DAEDALUS_HTTP_BODY_TIMEOUT_MS: "1e3" }, /DAEDALUS_HTTP_BODY_TIMEOUT_MS="1e3"/],
    [
      flags(),
      { DAEDALUS_BREAKER_OPEN_MS: "99" },
      /DAEDALUS_BREAKER_OPEN_MS="99" is not an integer from 100 to 86400000/,
    ],
    [flags(), { DAEDALUS_BREAKER_OPEN_MS: "86400001" }, /from 100 to 86400000/],
    [flags(), { DAEDALUS_BREAKER_OPEN_MS: "30s" }, /DAEDALUS_BREAKER_OPEN_MS="30s"/],
  ];
  for (const [f, e, message] of cases) {
    assert.throws(() => readServeOptions(f, { ...env, ...e }), (error: unknown) => {
      assert.ok(error instanceof OptionError);
      assert.match((error as Error).message, message);
      return true;
    });
  }
  assert.throws(
    () => readServeOptions(flags(), { ...env, DAEDALUS_HOME: "relative/home" }),
    /absolute/,
  );
});

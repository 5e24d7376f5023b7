import assert from "node:assert/strict";
import { join } from "node:path";
import { type FallbackCheckInput, fallbackIssues } from "./config_fallbacks.ts";
import { parseConfig, readConfig, updateConfig, writeConfig } from "./config_file.ts";
import { ConfigError } from "./errors.ts";

const ref = (provider_id: string, model_id: string) => ({ provider_id, model_id });

/** Two providers: `a` with models x (enabled), y (disabled); `b` with z (enabled). */
function providers(fallback: { provider_id: string; model_id: string }): FallbackCheckInput {
  return {
    providers: {
      a: { models: { x: { fallback }, y: { enabled: false } } },
      b: { models: { z: { enabled: true } } },
    },
  };
}

const CASES: { name: string; fallback: ReturnType<typeof ref>; problem: string | null }[] = [
  { name: "another provider's enabled model", fallback: ref("b", "z"), problem: null },
  {
    name: "the model itself",
    fallback: ref("a", "x"),
    problem: "fallback a/x is the model itself",
  },
  {
    name: "a disabled model",
    fallback: ref("a", "y"),
    problem: "fallback a/y is disabled; enable it first",
  },
  {
    name: "an unknown provider",
    fallback: ref("c", "z"),
    problem: "fallback c/z: provider c is not configured",
  },
  {
    name: "an unknown model",
    fallback: ref("b", "w"),
    problem: "fallback b/w: model w is not configured for provider b",
  },
  {
    name: "an inherited object key",
    fallback: ref("b", "toString"),
    problem: "fallback b/toString: model toString is not configured for provider b",
  },
];

for (const { name, fallback, problem } of CASES) {
  Deno.test(`fallbackIssues: ${name} is ${problem === null ? "accepted" : "refused"}`, () => {
    const issues = fallbackIssues(providers(fallback));
    if (problem === null) return assert.deepEqual(issues, [], "a valid fallback has no issue");
    assert.equal(issues.length, 1, `one issue expected, got ${JSON.stringify(issues)}`);
    assert.deepEqual(issues[0], {
      path: ["providers", "a", "models", "x", "fallback"],
      providerId: "a",
      modelId: "x",
      message: problem,
    });
  });
}

Deno.test("fallbackIssues: models without a fallback and chains of fallbacks are fine", () => {
  assert.deepEqual(
    fallbackIssues({
      providers: {
        a: { models: { x: { fallback: ref("a", "y") }, y: { fallback: ref("a", "x") } } },
      },
    }),
    [],
    "each model names another enabled one; only one level is followed at run time",
  );
});

const FILE = `version: 1
providers:
  a:
    type: openai_compatible
    base_url: http://127.0.0.1:1/v1
    models:
      x:
        fallback: { provider_id: a, model_id: y }
      y:
        enabled: true
`;

Deno.test("config.yaml: a valid fallback round-trips; a broken one is config_invalid at its key", async () => {
  const parsed = parseConfig(FILE, "config.yaml");
  assert.deepEqual(parsed.providers.a.models.x.fallback, ref("a", "y"));
  assert.throws(
    () => parseConfig(FILE.replace("enabled: true", "enabled: false"), "config.yaml"),
    (error) =>
      error instanceof ConfigError && error.code === "config_invalid" &&
      error.message.includes("providers.a.models.x.fallback") &&
      error.message.includes("fallback a/y is disabled"),
  );
  assert.throws(
    () => parseConfig(FILE.replace("model_id: y", "model_id: y, extra: 1"), "config.yaml"),
    (error) => error instanceof ConfigError && error.code === "config_invalid",
    "a fallback with an unknown key is refused like any other strict object",
  );
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "config.yaml");
    await writeConfig(path, parsed);
    assert.deepEqual((await readConfig(path)).providers.a.models.x.fallback, ref("a", "y"));
    const before = await Deno.readTextFile(path);
    // Disabling the model another one falls back to would break that fallback: refused.
    await assert.rejects(
      updateConfig(path, (config) => {
        config.providers.a.models.y.enabled = false;
        return config;
      }),
      (error) => error instanceof ConfigError && error.code === "config_invalid",
    );
    assert.equal(await Deno.readTextFile(path), before, "a refused write changes nothing");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

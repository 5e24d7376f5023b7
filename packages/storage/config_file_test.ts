import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type DaedalusConfigInput,
  defaultConfig,
  parseConfig,
  readConfig,
  updateConfig,
  writeConfig,
} from "./config_file.ts";
import { ConfigError, type ConfigErrorCode } from "./errors.ts";
import { CONFIG_MAX_BYTES } from "./limits.ts";
import { bigConfig, completeGeneration } from "./testdata/big_config.ts";
import { spawnFixture } from "./testdata/child.ts";

const FULL_CONFIG: DaedalusConfigInput = {
  version: 1,
  providers: {
    deepseek: {
      type: "openai_compatible",
      preset: "deepseek",
      display_name: "DeepSeek",
      base_url: "https://api.deepseek.com/v1",
      api_key: "sk-test-0123456789",
      headers: { "X-Trace": "on" },
      models: {
        "deepseek-chat": {
          display_name: "DeepSeek Chat",
          enabled: false,
          supports_tools: true,
          context_window: 65536,
          reasoning_efforts: ["low", "high", "max"],
          reasoning_effort: "high",
        },
      },
    },
    local_2: {
      type: "openai_compatible",
      base_url: "http://127.0.0.1:11434/v1",
      models: {
        "qwen2.5:7b": {},
        "org/model.v1": { supports_tools: false },
        "1.50": {},
        "true": {},
      },
    },
  },
  skills: { disabled: ["pdf-tools", "web"] },
  auxiliary: { thread_titles: false, memory_refinement: true },
};

async function withTempHome(fn: (home: string, configPath: string) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "daedalus_config_test_" });
  try {
    await fn(home, join(home, "config.yaml"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

function configError(
  code: ConfigErrorCode,
  expected: { keyPath?: string; line?: number; column?: number } = {},
): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${error}`);
    assert.equal(error.code, code, error.message);
    const [first] = error.issues;
    if (expected.keyPath !== undefined) {
      assert.equal(first?.keyPath, expected.keyPath, error.message);
      assert.ok(error.message.includes(`${expected.keyPath}: `), error.message);
    }
    if (expected.line !== undefined) {
      assert.equal(first?.line, expected.line, error.message);
      assert.ok(error.message.includes(`line ${expected.line}`), error.message);
    }
    if (expected.column !== undefined) assert.equal(first?.column, expected.column);
    return true;
  };
}

Deno.test("a missing config file reads as the empty default", async () => {
  await withTempHome(async (_home, path) => {
    assert.deepEqual(await readConfig(path), {
      version: 1,
      providers: {},
      skills: { disabled: [] },
    });
    assert.deepEqual(defaultConfig(), await readConfig(path));
  });
});

Deno.test("a file without the auxiliary section reads with every auxiliary call on", () => {
  const config = parseConfig("version: 1\nskills:\n  disabled: []\n", "config.yaml");
  assert.equal(config.auxiliary, undefined, "absent stays absent: nothing is written back");
  const partial = parseConfig("version: 1\nauxiliary:\n  memory_refinement: false\n", "c.yaml");
  assert.deepEqual(partial.auxiliary, { memory_refinement: false });
});

Deno.test("an empty or comment-only file reads as the default", async () => {
  await withTempHome(async (_home, path) => {
    await Deno.writeTextFile(path, "");
    assert.deepEqual(await readConfig(path), defaultConfig());
    await Deno.writeTextFile(path, "# nothing configured yet\n");
    assert.deepEqual(await readConfig(path), defaultConfig());
  });
});

Deno.test("write then read round-trips every field", async () => {
  await withTempHome(async (_home, path) => {
    const written = await writeConfig(path, FULL_CONFIG);
    const read = await readConfig(path);
    assert.deepEqual(read, written);
    assert.equal(read.providers.deepseek?.api_key, "sk-test-0123456789");
    assert.deepEqual(Object.keys(read.providers.local_2?.models ?? {}), [
      "qwen2.5:7b",
      "org/model.v1",
      "1.50",
      "true",
    ]);
    const text = await Deno.readTextFile(path);
    assert.match(text, /^version: 1\n/);
    assert.match(text, /base_url: https:\/\/api\.deepseek\.com\/v1/);
    assert.match(text, /reasoning_effort: high/);
  });
});

Deno.test("defaults are filled in for omitted model fields", async () => {
  await withTempHome(async (_home, path) => {
    await Deno.writeTextFile(
      path,
      [
        "version: 1",
        "providers:",
        "  local:",
        "    type: openai_compatible",
        "    base_url: http://localhost:8080/v1",
        "    models:",
        "      1.50: {}", // an unquoted number keeps its source text as the model id
        "      llama3:8b:",
        "        context_window: 8192",
        "  empty:",
        "    type: openai_compatible",
        "    base_url: http://localhost:8081",
      ].join("\n"),
    );
    const config = await readConfig(path);
    assert.deepEqual(config.providers.local?.models, {
      "1.50": { enabled: true, supports_tools: true },
      "llama3:8b": { enabled: true, supports_tools: true, context_window: 8192 },
    });
    assert.deepEqual(config.providers.empty?.models, {});
    assert.deepEqual(config.skills, { disabled: [] });
  });
});

const PROVIDER_HEAD = [
  "version: 1",
  "providers:",
  "  local:",
  "    type: openai_compatible",
  "    base_url: http://127.0.0.1:1234/v1",
];

function withModel(...lines: string[]): string {
  return [...PROVIDER_HEAD, "    models:", "      x:", ...lines.map((l) => `        ${l}`)]
    .join("\n");
}

const INVALID_CASES: {
  name: string;
  yaml: string;
  code: ConfigErrorCode;
  keyPath?: string;
  line?: number;
  column?: number;
}[] = [
  {
    name: "unknown top-level key",
    yaml: "version: 1\nextra: true\n",
    code: "config_invalid",
    keyPath: "extra",
    line: 2,
    column: 1,
  },
  {
    name: "auxiliary switch that is not a boolean",
    yaml: 'version: 1\nauxiliary:\n  thread_titles: "no"\n',
    code: "config_invalid",
    keyPath: "auxiliary.thread_titles",
    line: 3,
  },
  {
    name: "unknown auxiliary key",
    yaml: "version: 1\nauxiliary:\n  summaries: false\n",
    code: "config_invalid",
    keyPath: "auxiliary.summaries",
    line: 3,
  },
  {
    name: "unknown model key",
    yaml: withModel("temperature: 0.2"),
    code: "config_invalid",
    keyPath: "providers.local.models.x.temperature",
    line: 8,
    column: 9,
  },
  {
    name: "context_window zero",
    yaml: withModel("context_window: 0"),
    code: "config_invalid",
    keyPath: "providers.local.models.x.context_window",
    line: 8,
    column: 25,
  },
  {
    name: "context_window fractional",
    yaml: withModel("context_window: 1.5"),
    code: "config_invalid",
    keyPath: "providers.local.models.x.context_window",
  },
  {
    name: "context_window beyond a safe integer",
    yaml: withModel("context_window: 9007199254740993"),
    code: "config_invalid",
    keyPath: "providers.local.models.x.context_window",
  },
  {
    name: "enabled not a boolean",
    yaml: withModel("enabled: yes"),
    code: "config_invalid",
    keyPath: "providers.local.models.x.enabled",
  },
  {
    name: "unknown reasoning effort",
    yaml: withModel("reasoning_efforts: [low, extreme]"),
    code: "config_invalid",
    keyPath: "providers.local.models.x.reasoning_efforts[1]",
  },
  {
    name: "duplicate reasoning effort",
    yaml: withModel("reasoning_efforts: [low, low]"),
    code: "config_invalid",
    keyPath: "providers.local.models.x.reasoning_efforts[1]",
  },
  {
    name: "default effort outside the supported list",
    yaml: withModel("reasoning_efforts: [low, high]", "reasoning_effort: max"),
    code: "config_invalid",
    keyPath: "providers.local.models.x.reasoning_effort",
    line: 9,
  },
  {
    name: "model id too long",
    yaml: [...PROVIDER_HEAD, "    models:", `      ${"m".repeat(201)}: {}`].join("\n"),
    code: "config_invalid",
    keyPath: `providers.local.models.${"m".repeat(201)}`,
    line: 7,
    column: 7,
  },
  {
    name: "provider id with capitals",
    yaml: "version: 1\nproviders:\n  Local:\n    type: openai_compatible\n    base_url: http://x\n",
    code: "config_invalid",
    keyPath: "providers.Local",
    line: 3,
    column: 3,
  },
  {
    name: "base_url not http(s)",
    yaml: [...PROVIDER_HEAD.slice(0, 4), "    base_url: ftp://example.com"].join("\n"),
    code: "config_invalid",
    keyPath: "providers.local.base_url",
    line: 5,
    column: 15,
  },
  {
    name: "base_url missing",
    yaml: PROVIDER_HEAD.slice(0, 4).join("\n"),
    code: "config_invalid",
    keyPath: "providers.local.base_url",
  },
  {
    name: "unknown provider type",
    yaml: [...PROVIDER_HEAD.slice(0, 3), "    type: anthropic", PROVIDER_HEAD[4]].join("\n"),
    code: "config_invalid",
    keyPath: "providers.local.type",
  },
  {
    name: "unknown preset",
    yaml: [...PROVIDER_HEAD, "    preset: openai"].join("\n"),
    code: "config_invalid",
    keyPath: "providers.local.preset",
  },
  {
    name: "header value with a line break",
    yaml: [...PROVIDER_HEAD, "    headers:", '      X-A: "a\\nb"'].join("\n"),
    code: "config_invalid",
    keyPath: "providers.local.headers.X-A",
  },
  {
    name: "header name that is not a token",
    yaml: [...PROVIDER_HEAD, "    headers:", '      "X A": b'].join("\n"),
    code: "config_invalid",
    keyPath: 'providers.local.headers["X A"]',
  },
  {
    name: "empty api_key",
    yaml: [...PROVIDER_HEAD, '    api_key: ""'].join("\n"),
    code: "config_invalid",
    keyPath: "providers.local.api_key",
  },
  {
    name: "bad skill name",
    yaml: "version: 1\nskills:\n  disabled: [ok, Not_OK]\n",
    code: "config_invalid",
    keyPath: "skills.disabled[1]",
    line: 3,
    column: 18,
  },
  {
    name: "duplicate skill",
    yaml: "version: 1\nskills:\n  disabled: [a, a]\n",
    code: "config_invalid",
    keyPath: "skills.disabled[1]",
  },
  {
    name: "root is a list",
    yaml: "- version: 1\n",
    code: "config_invalid",
    keyPath: "",
  },
  {
    name: "unsupported version",
    yaml: "version: 2\nproviders: {}\n",
    code: "config_version",
    keyPath: "version",
    line: 1,
    column: 10,
  },
  { name: "version as a string", yaml: 'version: "1"\n', code: "config_version" },
  { name: "missing version", yaml: "providers: {}\n", code: "config_version", keyPath: "version" },
  {
    name: "duplicate key",
    yaml: "version: 1\nskills: {}\nskills: {}\n",
    code: "config_parse",
    line: 3,
    column: 1,
  },
  {
    name: "unclosed flow sequence",
    yaml: "version: 1\nskills:\n  disabled: [a\n",
    code: "config_parse",
  },
  { name: "two documents", yaml: "version: 1\n---\nversion: 1\n", code: "config_parse" },
  { name: "unresolved alias", yaml: "version: 1\nskills: *nothing\n", code: "config_parse" },
];

for (const testCase of INVALID_CASES) {
  Deno.test(`invalid config: ${testCase.name}`, async () => {
    await withTempHome(async (_home, path) => {
      await Deno.writeTextFile(path, testCase.yaml);
      await assert.rejects(readConfig(path), configError(testCase.code, testCase));
    });
  });
}

Deno.test("errors never quote the api_key", () => {
  const secret = "sk-live-abcdef0123456789";
  const sources = [
    [...PROVIDER_HEAD, `    api_key: "${secret}`].join("\n"), // unclosed quote
    [...PROVIDER_HEAD, `    api_key: [${secret}]`].join("\n"), // wrong type
    [...PROVIDER_HEAD, `    api_key: ${secret}`, `    ${secret}`].join("\n"), // stray token
  ];
  for (const source of sources) {
    assert.throws(() => parseConfig(source, "/h/config.yaml"), (error) => {
      assert.ok(error instanceof ConfigError);
      assert.ok(!JSON.stringify(error.issues).includes(secret), "issues leak the key");
      assert.ok(!error.message.includes(secret), `message leaks the key: ${error.message}`);
      assert.ok(!String(error.cause ?? "").includes(secret), "cause leaks the key");
      return true;
    });
  }
});

Deno.test("a file that is not UTF-8 fails with config_parse", async () => {
  await withTempHome(async (_home, path) => {
    await Deno.writeFile(path, new Uint8Array([0x76, 0x3a, 0x20, 0xff, 0xfe, 0x0a]));
    await assert.rejects(readConfig(path), configError("config_parse"));
  });
});

Deno.test("a directory in place of the file fails with config_io", async () => {
  await withTempHome(async (_home, path) => {
    await Deno.mkdir(path);
    await assert.rejects(readConfig(path), configError("config_io"));
  });
});

Deno.test("reads over 256 KiB fail with config_too_large; exactly 256 KiB is fine", async () => {
  await withTempHome(async (_home, path) => {
    const head = "version: 1\n#";
    const atLimit = head + "x".repeat(CONFIG_MAX_BYTES - head.length - 1) + "\n";
    assert.equal(new TextEncoder().encode(atLimit).byteLength, CONFIG_MAX_BYTES);
    await Deno.writeTextFile(path, atLimit);
    assert.deepEqual(await readConfig(path), defaultConfig());
    await Deno.writeTextFile(path, atLimit + "\n");
    await assert.rejects(readConfig(path), configError("config_too_large"));
    assert.throws(() => parseConfig(atLimit + "\n", path), configError("config_too_large"));
  });
});

Deno.test("writes over 256 KiB fail with config_too_large and change nothing", async () => {
  await withTempHome(async (home, path) => {
    await writeConfig(path, FULL_CONFIG);
    const before = await Deno.readTextFile(path);
    const models: Record<string, { display_name: string }> = {};
    for (let i = 0; i < 2000; i++) models[`m${i}`] = { display_name: "d".repeat(150) };
    const huge: DaedalusConfigInput = {
      version: 1,
      providers: { big: { type: "openai_compatible", base_url: "http://x", models } },
    };
    await assert.rejects(writeConfig(path, huge), configError("config_too_large"));
    assert.equal(await Deno.readTextFile(path), before);
    assert.deepEqual(await listDir(home), ["config.yaml"]);
  });
});

Deno.test("writeConfig rejects an invalid config with its key path", async () => {
  await withTempHome(async (home, path) => {
    const invalid = structuredClone(FULL_CONFIG);
    const model = invalid.providers?.deepseek?.models?.["deepseek-chat"];
    assert.ok(model);
    model.context_window = -1;
    await assert.rejects(
      writeConfig(path, invalid),
      configError("config_invalid", {
        keyPath: "providers.deepseek.models.deepseek-chat.context_window",
      }),
    );
    await assert.rejects(
      writeConfig(path, { ...FULL_CONFIG, version: 2 as 1 }),
      configError("config_invalid", { keyPath: "version" }),
    );
    assert.deepEqual(await listDir(home), [], "nothing may be written");
  });
});

Deno.test("a broken file is never overwritten by writeConfig or updateConfig", async () => {
  await withTempHome(async (_home, path) => {
    const broken = "version: 1\nproviders:\n  local: {type: openai_compatible\n";
    await Deno.writeTextFile(path, broken);
    await assert.rejects(writeConfig(path, defaultConfig()), configError("config_parse"));
    await assert.rejects(updateConfig(path, (c) => c), configError("config_parse"));
    assert.equal(await Deno.readTextFile(path), broken);

    const invalid = "version: 1\nskills:\n  disabled: [BAD]\n";
    await Deno.writeTextFile(path, invalid);
    await assert.rejects(
      writeConfig(path, defaultConfig()),
      configError("config_invalid", { keyPath: "skills.disabled[0]", line: 3 }),
    );
    assert.equal(await Deno.readTextFile(path), invalid);

    await Deno.writeTextFile(path, "version: 7\n");
    await assert.rejects(updateConfig(path, (c) => c), configError("config_version"));
    assert.equal(await Deno.readTextFile(path), "version: 7\n");
  });
});

Deno.test("the config file is written with mode 0600", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await withTempHome(async (_home, path) => {
    await writeConfig(path, FULL_CONFIG);
    assert.equal(((await Deno.stat(path)).mode ?? 0) & 0o777, 0o600);
    await Deno.chmod(path, 0o644);
    await writeConfig(path, FULL_CONFIG);
    assert.equal(((await Deno.stat(path)).mode ?? 0) & 0o777, 0o600);
  });
});

Deno.test("updateConfig applies the change and serializes concurrent updates", async () => {
  await withTempHome(async (_home, path) => {
    await writeConfig(path, FULL_CONFIG);
    const names = Array.from({ length: 8 }, (_, i) => `skill-${i}`);
    await Promise.all(names.map((name) =>
      updateConfig(path, async (config) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        config.skills.disabled.push(name);
        return config;
      })
    ));
    const { skills } = await readConfig(path);
    assert.deepEqual(skills.disabled, ["pdf-tools", "web", ...names]);
  });
});

Deno.test("updateConfig leaves the file untouched when the update throws", async () => {
  await withTempHome(async (_home, path) => {
    await writeConfig(path, FULL_CONFIG);
    const before = await Deno.readTextFile(path);
    await assert.rejects(
      updateConfig(path, () => {
        throw new Error("changed my mind");
      }),
      /changed my mind/,
    );
    assert.equal(await Deno.readTextFile(path), before);
    const after = await updateConfig(path, (config) => {
      delete config.providers.local_2;
      return config;
    });
    assert.deepEqual(Object.keys(after.providers), ["deepseek"]);
    assert.deepEqual(await readConfig(path), after);
  });
});

Deno.test("leftover temp files are ignored by reads and removed by the next write", async () => {
  await withTempHome(async (home, path) => {
    await writeConfig(path, FULL_CONFIG);
    const leftover = join(home, ".config.yaml.0123456789abcdef.tmp");
    await Deno.writeTextFile(leftover, "version: 1\nproviders: {trunc");
    await Deno.writeTextFile(join(home, "config.yaml.bak"), "kept");
    const read = await readConfig(path);
    assert.equal(read.skills.disabled.length, 2);
    await writeConfig(path, read);
    assert.deepEqual(await listDir(home), ["config.yaml", "config.yaml.bak"]);
  });
});

Deno.test("a write into a missing directory fails with config_io", async () => {
  await withTempHome(async (home) => {
    const path = join(home, "missing", "config.yaml");
    await assert.rejects(writeConfig(path, FULL_CONFIG), configError("config_io"));
    assert.deepEqual(await listDir(home), []);
  });
});

Deno.test("a writer killed at random moments leaves an old or a new complete config", async () => {
  await withTempHome(async (home, path) => {
    await writeConfig(path, bigConfig(0));
    let lastGeneration = 0;
    const rounds = 6;
    for (let round = 0; round < rounds; round++) {
      const writer = spawnFixture("config_writer.ts", [path, String(lastGeneration + 1)]);
      try {
        assert.equal(await writer.nextLine(), "writing", "writer should start writing");
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 400));
      } finally {
        await writer.stop("SIGKILL");
      }
      const generation = completeGeneration(await readConfig(path));
      assert.ok(
        generation > lastGeneration,
        `round ${round}: generation ${generation} should follow ${lastGeneration}`,
      );
      lastGeneration = generation;
    }
    const final = await writeConfig(path, bigConfig(lastGeneration + 1));
    assert.equal(completeGeneration(final), lastGeneration + 1);
    assert.deepEqual(await listDir(home), ["config.yaml"], "no temp file may remain");
  });
});

Deno.test("budgets and model prices are read and validated, naming the field at fault", () => {
  const config = parseConfig(
    "version: 1\nbudgets:\n  tokens: 200000\n  cost_usd: 2.5\n" +
      "providers:\n  local:\n    type: openai_compatible\n    base_url: http://127.0.0.1:1/v1\n" +
      "    models:\n      m:\n        price: {input_usd_per_mtok: 0.27, output_usd_per_mtok: 1.1}\n",
    "config.yaml",
  );
  assert.deepEqual(config.budgets, { tokens: 200000, cost_usd: 2.5 });
  assert.deepEqual(config.providers.local?.models.m?.price, {
    input_usd_per_mtok: 0.27,
    output_usd_per_mtok: 1.1,
  });
  const bad: Array<[string, RegExp]> = [
    ["budgets:\n  tokens: 0\n", /budgets\.tokens/],
    ["budgets:\n  model_calls: 1.5\n", /budgets\.model_calls/],
    ["budgets:\n  minutes: 3\n", /minutes/],
    ["budgets:\n  cost_usd: -1\n", /budgets\.cost_usd/],
  ];
  for (const [section, field] of bad) {
    assert.throws(
      () => parseConfig(`version: 1\n${section}`, "config.yaml"),
      (error: Error) => error instanceof ConfigError && field.test(error.message),
      section,
    );
  }
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { readConfig } from "@daedalus/storage";
import { handlerCalls } from "./_test_handler_calls.ts";
import { ProviderRegistry } from "../providers/registry.ts";
import {
  type AuxiliaryForcedOff,
  createSettingsHandlers,
  readAuxiliarySettings,
} from "./settings_handlers.ts";

async function withConfig(
  fn: (configPath: string, forcedOff?: AuxiliaryForcedOff) => Promise<void>,
  configText?: string,
) {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-settings-rpc-" });
  const configPath = join(dir, "config.yaml");
  if (configText !== undefined) await Deno.writeTextFile(configPath, configText);
  try {
    await fn(configPath);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("without an auxiliary section both calls are on", async () => {
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createSettingsHandlers({ configPath }));
    assert.deepEqual((await call("settings.read", {})).settings, {
      threadTitles: true,
      memoryRefinement: true,
      forcedOff: { threadTitles: false, memoryRefinement: false },
      compaction: { threshold: 0.9, enabled: true },
      defaultModel: null,
    });
    assert.deepEqual(await readAuxiliarySettings(configPath), {
      threadTitles: true,
      memoryRefinement: true,
    });
  }, "version: 1\n");
});

Deno.test("settings.update changes only the given switch, in config.yaml", async () => {
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createSettingsHandlers({ configPath }));
    const updated = await call("settings.update", { threadTitles: false });
    assert.equal(updated.settings.threadTitles, false);
    assert.equal(updated.settings.memoryRefinement, true);
    const config = await readConfig(configPath);
    assert.deepEqual(config.auxiliary, { thread_titles: false });
    assert.deepEqual(config.skills.disabled, ["csv"], "the rest of the file is kept");
    assert.match(await Deno.readTextFile(configPath), /thread_titles: false/);
    assert.deepEqual(await readAuxiliarySettings(configPath), {
      threadTitles: false,
      memoryRefinement: true,
    });
    await call("settings.update", { memoryRefinement: false, threadTitles: true });
    assert.deepEqual((await readConfig(configPath)).auxiliary, {
      thread_titles: true,
      memory_refinement: false,
    });
  }, "version: 1\nskills:\n  disabled: [csv]\n");
});

Deno.test("an update that changes nothing leaves the file as the user wrote it", async () => {
  const text = "# my comment\nversion: 1\n";
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createSettingsHandlers({ configPath }));
    await call("settings.update", { threadTitles: true });
    assert.equal(await Deno.readTextFile(configPath), text);
  }, text);
});

Deno.test("a hand edit of config.yaml is read by the next call", async () => {
  await withConfig(async (configPath) => {
    assert.equal((await readAuxiliarySettings(configPath)).memoryRefinement, true);
    await Deno.writeTextFile(configPath, "version: 1\nauxiliary:\n  memory_refinement: false\n");
    assert.equal((await readAuxiliarySettings(configPath)).memoryRefinement, false);
  }, "version: 1\n");
});

Deno.test("the environment forces a call off whatever the setting says, and read reports it", async () => {
  await withConfig(async (configPath) => {
    const forcedOff = { threadTitles: true, memoryRefinement: false };
    const { call } = handlerCalls(createSettingsHandlers({ configPath, forcedOff }));
    const { settings } = await call("settings.read", {});
    assert.equal(settings.threadTitles, true, "the saved setting is shown as saved");
    assert.deepEqual(settings.forcedOff, forcedOff);
    assert.deepEqual(await readAuxiliarySettings(configPath, forcedOff), {
      threadTitles: false,
      memoryRefinement: true,
    });
  }, "version: 1\nauxiliary:\n  thread_titles: true\n");
});

Deno.test("a broken config.yaml is refused with config_invalid and never overwritten", async () => {
  const text = "version: 1\nauxiliary:\n  thread_titles: maybe\n";
  await withConfig(async (configPath) => {
    const { refuse } = handlerCalls(createSettingsHandlers({ configPath }));
    for (
      const [method, params] of [["settings.read", {}], ["settings.update", {
        threadTitles: false,
      }]] as const
    ) {
      const error = await refuse(method, params);
      assert.equal(error.code, -32602, method);
      assert.equal(error.reasonCode, "config_invalid", method);
    }
    assert.equal(await Deno.readTextFile(configPath), text);
  }, text);
});

Deno.test("params are strict booleans", async () => {
  await withConfig(async (configPath) => {
    const { refuse } = handlerCalls(createSettingsHandlers({ configPath }));
    assert.equal((await refuse("settings.update", { threadTitles: "no" })).code, -32602);
    assert.equal(
      (await refuse("settings.update", { summaries: false })).reasonCode,
      "unknown_field",
    );
  });
});

Deno.test("settings.update changes the compaction fields given and keeps the others", async () => {
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createSettingsHandlers({ configPath }));
    const first = await call("settings.update", { compaction: { threshold: 0.6 } });
    assert.deepEqual(first.settings.compaction, { threshold: 0.6, enabled: true });
    const config = await readConfig(configPath);
    assert.deepEqual(config.compaction, { threshold: 0.6 });
    assert.equal(config.auxiliary, undefined, "no empty auxiliary section is written");
    const second = await call("settings.update", { compaction: { enabled: false } });
    assert.deepEqual(second.settings.compaction, { threshold: 0.6, enabled: false });
    assert.deepEqual((await call("settings.read", {})).settings.compaction, {
      threshold: 0.6,
      enabled: false,
    });
    assert.deepEqual((await readConfig(configPath)).skills.disabled, ["csv"]);
  }, "version: 1\nskills:\n  disabled: [csv]\n");
});

Deno.test("a compaction threshold outside 0.5–0.95 is refused naming the field", async () => {
  await withConfig(async (configPath) => {
    const { refuse } = handlerCalls(createSettingsHandlers({ configPath }));
    for (const threshold of [0.4, 0.96, 2]) {
      const error = await refuse("settings.update", { compaction: { threshold } });
      assert.equal(error.code, -32602, `threshold ${threshold}`);
      assert.equal(error.data?.field, "compaction.threshold", `threshold ${threshold}`);
    }
    assert.equal(
      (await refuse("settings.update", { compaction: { level: 1 } })).reasonCode,
      "unknown_field",
    );
    assert.equal(await Deno.readTextFile(configPath), "version: 1\n", "nothing written");
  }, "version: 1\n");
});

const PROVIDERS = "version: 1\nproviders:\n  local:\n    type: openai_compatible\n" +
  "    base_url: http://127.0.0.1:9/v1\n    models:\n      small: {}\n" +
  "      off: {enabled: false}\n";

/** Handlers whose registry knows config.yaml's providers as the file is now. */
async function withRegistry(
  fn: (
    handlers: ReturnType<typeof handlerCalls<"settings.read" | "settings.update">>,
    configPath: string,
  ) => Promise<void>,
  configText = PROVIDERS,
) {
  await withConfig(async (configPath) => {
    const registry = new ProviderRegistry(await readConfig(configPath));
    await fn(handlerCalls(createSettingsHandlers({ configPath, registry })), configPath);
  }, configText);
}

Deno.test("settings.update sets and clears the default model in config.yaml's agents section", async () => {
  await withRegistry(async ({ call }, configPath) => {
    const model = { providerId: "local", modelId: "small" };
    const set = await call("settings.update", { defaultModel: model });
    assert.deepEqual(set.settings.defaultModel, model);
    assert.deepEqual((await readConfig(configPath)).agents?.default_model, {
      provider_id: "local",
      model_id: "small",
    });
    assert.deepEqual((await call("settings.read", {})).settings.defaultModel, model);
    const unchanged = await Deno.readTextFile(configPath);
    await call("settings.update", { threadTitles: true, defaultModel: model });
    assert.equal(await Deno.readTextFile(configPath), unchanged, "the same model rewrote");
    const cleared = await call("settings.update", { defaultModel: null });
    assert.equal(cleared.settings.defaultModel, null);
    assert.equal((await readConfig(configPath)).agents, undefined, "an empty section was left");
    assert.ok((await readConfig(configPath)).providers.local, "the providers were kept");
  });
});

Deno.test("a default model the registry cannot resolve is refused as model_not_found", async () => {
  await withRegistry(async ({ refuse }, configPath) => {
    const before = await Deno.readTextFile(configPath);
    const cases: [string, { providerId: string; modelId: string }][] = [
      ["an unknown provider", { providerId: "nowhere", modelId: "small" }],
      ["an unknown model", { providerId: "local", modelId: "large" }],
      ["a disabled model", { providerId: "local", modelId: "off" }],
    ];
    for (const [name, defaultModel] of cases) {
      const error = await refuse("settings.update", { defaultModel });
      assert.equal(error.code, -32602, name);
      assert.equal(error.reasonCode, "model_not_found", `${name}: ${error.message}`);
      assert.equal(error.data?.field, "defaultModel", name);
      assert.match(error.message, new RegExp(defaultModel.modelId), `${name}: ${error.message}`);
    }
    assert.equal(
      (await refuse("settings.update", { defaultModel: { providerId: "local" } })).code,
      -32602,
      "a model without its id is invalid params",
    );
    assert.equal(await Deno.readTextFile(configPath), before, "a refusal wrote the file");
  });
});

Deno.test("without a registry no default model is accepted", async () => {
  await withConfig(async (configPath) => {
    const { refuse } = handlerCalls(createSettingsHandlers({ configPath }));
    const error = await refuse("settings.update", {
      defaultModel: { providerId: "local", modelId: "small" },
    });
    assert.equal(error.reasonCode, "model_not_found");
  }, PROVIDERS);
});

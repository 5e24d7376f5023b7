import assert from "node:assert/strict";
import type { AgentProfile } from "@daedalus/protocol";
import { ConfigError } from "./errors.ts";
import {
  defaultModelSetting,
  readAgentsConfig,
  removeAgentProfile,
  saveAgentProfile,
  withDefaultModel,
} from "./config_agents.ts";
import { readConfig, updateConfig, writeConfig } from "./config_file.ts";

const reviewer: AgentProfile = {
  id: "reviewer",
  name: "Reviewer",
  permission: "read_only",
  tools: ["read", "grep"],
  skills: [],
  memory: { recall: true, memoryFile: false },
};

async function withConfig(text: string, body: (path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-agents-config-" });
  const path = `${dir}/config.yaml`;
  await Deno.writeTextFile(path, text);
  try {
    await body(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("agents section: save adds then replaces in place, the rest of the file kept", async () => {
  await withConfig("version: 1\nskills:\n  disabled: [old]\n", async (path) => {
    assert.deepEqual(await readAgentsConfig(path), {}, "no section reads as {}");
    await saveAgentProfile(path, reviewer);
    await saveAgentProfile(path, { ...reviewer, id: "second", name: "Second" }, true);
    const edited = { ...reviewer, name: "Reviewer 2", tools: [] };
    const section = await saveAgentProfile(path, edited);
    assert.deepEqual(section.profiles?.map((p) => p.id), ["reviewer", "second"]);
    assert.deepEqual(section.profiles?.[0], edited, "the saved profile must be the edit");
    assert.equal(section.default_agent_id, "second");
    const text = await Deno.readTextFile(path);
    assert.match(text, /tools: \[\]/, "an explicit [] must survive the write");
    assert.deepEqual((await readConfig(path)).skills.disabled, ["old"]);
  });
});

Deno.test("agents section: remove drops the profile and a default that named it", async () => {
  await withConfig("version: 1\n", async (path) => {
    await saveAgentProfile(path, reviewer, true);
    assert.equal(await removeAgentProfile(path, "nope"), false, "no such profile");
    assert.equal(await removeAgentProfile(path, "reviewer"), true);
    const section = await readAgentsConfig(path);
    assert.deepEqual(section.profiles, []);
    assert.equal(section.default_agent_id, undefined, "the default must not name a gone profile");
  });
});

Deno.test("agents section: bad entries are config_invalid naming the field", async () => {
  const cases: [string, string, RegExp][] = [
    [
      "an unknown key in a profile",
      "profiles:\n    - {id: a, name: A, permission: ask, memory: {recall: true, memoryFile: true}, colour: red}",
      /agents\.profiles\[0\]|colour/,
    ],
    [
      "a bad preset",
      "profiles:\n    - {id: a, name: A, permission: root, memory: {recall: true, memoryFile: true}}",
      /agents\.profiles\[0\]\.permission/,
    ],
    [
      "a profile twice",
      "profiles:\n    - {id: a, name: A, permission: ask, memory: {recall: true, memoryFile: true}}\n" +
      "    - {id: a, name: B, permission: ask, memory: {recall: true, memoryFile: true}}",
      /listed twice/,
    ],
    ["a bad max_permission", "max_permission: everything", /max_permission/],
    ["a bad default id", "default_agent_id: 'Not An Id'", /default_agent_id/],
    [
      "a default model with a bad provider id",
      "default_model: {provider_id: 'Not Valid', model_id: m}",
      /agents\.default_model\.provider_id/,
    ],
    [
      "a default model without its model",
      "default_model: {provider_id: p}",
      /agents\.default_model\.model_id/,
    ],
    [
      "a default model in the wire's camelCase",
      "default_model: {providerId: p, modelId: m}",
      /agents\.default_model/,
    ],
    [
      "a tool listed twice",
      "profiles:\n    - {id: a, name: A, permission: ask, tools: [read, read], memory: {recall: true, memoryFile: true}}",
      /listed twice/,
    ],
  ];
  for (const [name, section, pattern] of cases) {
    await withConfig(`version: 1\nagents:\n  ${section}\n`, async (path) => {
      await assert.rejects(
        readConfig(path),
        (error: unknown) =>
          error instanceof ConfigError && error.code === "config_invalid" &&
          pattern.test(error.message),
        `${name}: not refused as config_invalid matching ${pattern}`,
      );
    });
  }
});

Deno.test("agents section: a refused save leaves the file untouched", async () => {
  await withConfig("version: 1\n", async (path) => {
    await writeConfig(path, { version: 1 });
    const before = await Deno.readTextFile(path);
    await assert.rejects(
      saveAgentProfile(path, { ...reviewer, permission: "root" as "ask" }),
      (error: unknown) => error instanceof ConfigError && error.code === "config_invalid",
    );
    assert.equal(await Deno.readTextFile(path), before, "a refused save changed the file");
  });
});

Deno.test("agents section: the default model is written, kept by profile saves, and cleared", async () => {
  await withConfig("version: 1\nskills:\n  disabled: [old]\n", async (path) => {
    assert.equal(defaultModelSetting((await readConfig(path)).agents), null, "none at first");
    const model = { providerId: "deepseek", modelId: "deepseek-v4-flash" };
    await updateConfig(path, (config) => withDefaultModel(config, model));
    assert.match(await Deno.readTextFile(path), /provider_id: deepseek/, "snake_case on disk");
    await saveAgentProfile(path, reviewer, true);
    const section = await readAgentsConfig(path);
    assert.deepEqual(defaultModelSetting(section), model, "a profile save dropped the model");
    assert.equal(section.default_agent_id, "reviewer");
    await updateConfig(path, (config) => withDefaultModel(config, null));
    const cleared = await readAgentsConfig(path);
    assert.equal(cleared.default_model, undefined, "null must clear the default model");
    assert.equal(cleared.profiles?.length, 1, "clearing the model must keep the profiles");
  });
});

Deno.test("agents section: clearing the only key leaves no empty section behind", async () => {
  await withConfig("version: 1\n", async (path) => {
    const model = { providerId: "p", modelId: "m" };
    await updateConfig(path, (config) => withDefaultModel(config, model));
    await updateConfig(path, (config) => withDefaultModel(config, null));
    assert.equal((await readConfig(path)).agents, undefined, "an empty agents section was left");
  });
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { readConfig, updateConfig, writeConfig } from "./config_file.ts";

function yamlWithModel(modelId: string): string {
  return [
    "version: 1",
    "providers:",
    "  local:",
    "    type: openai_compatible",
    "    base_url: http://127.0.0.1:11434/v1",
    "    models:",
    `      ${modelId}: {}`,
    "",
  ].join("\n");
}

/** A test on a config.yaml path in a fresh folder, removed afterwards. */
function withConfigPath(name: string, fn: (path: string) => Promise<void>) {
  Deno.test(name, async () => {
    const dir = await Deno.makeTempDir({ prefix: "daedalus-config-cache-" });
    try {
      await fn(join(dir, "config.yaml"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

withConfigPath("an external edit of config.yaml is seen by the next read", async (path) => {
  await Deno.writeTextFile(path, yamlWithModel("a"));
  assert.deepEqual(Object.keys((await readConfig(path)).providers.local.models), ["a"]);

  await Deno.writeTextFile(path, yamlWithModel("model-b"));
  assert.deepEqual(Object.keys((await readConfig(path)).providers.local.models), ["model-b"]);
});

withConfigPath("an edit of the same size is seen when the mtime differs", async (path) => {
  await Deno.writeTextFile(path, yamlWithModel("aaa"));
  const before = (await Deno.stat(path)).mtime!;
  assert.deepEqual(Object.keys((await readConfig(path)).providers.local.models), ["aaa"]);

  await Deno.writeTextFile(path, yamlWithModel("bbb"));
  await Deno.utime(path, new Date(), new Date(before.getTime() + 5_000));
  assert.deepEqual(Object.keys((await readConfig(path)).providers.local.models), ["bbb"]);
});

withConfigPath(
  "an unchanged mtime, size and inode is served without reading the file",
  async (path) => {
    await Deno.writeTextFile(path, yamlWithModel("aaa"));
    const { mtime, atime } = await Deno.stat(path);
    await readConfig(path);

    // Same inode (written in place), same size, mtime put back: only the stamp is compared.
    await Deno.writeTextFile(path, yamlWithModel("bbb"));
    await Deno.utime(path, atime!, mtime!);
    assert.deepEqual(Object.keys((await readConfig(path)).providers.local.models), ["aaa"]);
  },
);

withConfigPath("a cached config is a private copy for every reader", async (path) => {
  await Deno.writeTextFile(path, yamlWithModel("a"));
  const first = await readConfig(path);
  first.skills.disabled.push("mutated");
  delete first.providers.local;
  const second = await readConfig(path);
  assert.deepEqual(second.skills.disabled, []);
  assert.ok(second.providers.local);
});

withConfigPath("a write through updateConfig is what the next read returns", async (path) => {
  await writeConfig(path, { version: 1 });
  await readConfig(path);
  await updateConfig(path, (config) => {
    config.skills.disabled.push("pdf-tools");
    return config;
  });
  assert.deepEqual((await readConfig(path)).skills.disabled, ["pdf-tools"]);

  // The written file is still watched: an edit right after our write is seen.
  await Deno.writeTextFile(path, "version: 1\nskills:\n  disabled: [other]\n");
  assert.deepEqual((await readConfig(path)).skills.disabled, ["other"]);
});

withConfigPath("a file broken after a cached read fails the next read", async (path) => {
  await Deno.writeTextFile(path, yamlWithModel("a"));
  await readConfig(path);
  await Deno.writeTextFile(path, "version: 1\nproviders: [\n");
  await assert.rejects(readConfig(path), { code: "config_parse" });
  await Deno.remove(path);
  assert.deepEqual((await readConfig(path)).providers, {});
});

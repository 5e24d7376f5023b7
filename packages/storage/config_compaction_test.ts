import assert from "node:assert/strict";
import { join } from "node:path";
import { readConfig, writeConfig } from "./config_file.ts";
import {
  compactionSetting,
  effectiveCompaction,
  readCompaction,
  writeCompaction,
} from "./config_compaction.ts";
import { ConfigError } from "./errors.ts";

async function withTempHome(fn: (configPath: string) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "daedalus_compaction_test_" });
  try {
    await fn(join(home, "config.yaml"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Asserts a config_invalid error whose first issue is at `keyPath` (and says `message`). */
function invalidAt(keyPath: string, message: RegExp, line?: number) {
  return (error: unknown) => {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${error}`);
    assert.equal(error.code, "config_invalid", error.message);
    assert.equal(error.issues[0]?.keyPath, keyPath, error.message);
    assert.match(error.issues[0]?.message ?? "", message, error.message);
    if (line !== undefined) assert.equal(error.issues[0]?.line, line, error.message);
    return true;
  };
}

Deno.test("no file, an old file and an empty section read as 0.9 and on", async () => {
  await withTempHome(async (path) => {
    assert.deepEqual(await readCompaction(path), { threshold: 0.9, enabled: true }, "no file");
    await Deno.writeTextFile(path, "version: 1\nskills:\n  disabled: [web]\n");
    assert.deepEqual(await readCompaction(path), { threshold: 0.9, enabled: true }, "old file");
    await Deno.writeTextFile(path, "version: 1\ncompaction: {}\n");
    assert.deepEqual(await readCompaction(path), { threshold: 0.9, enabled: true }, "empty");
  });
});

Deno.test("a file's compaction values are checked, each bad one naming its field and line", async () => {
  const cases: [string, string, RegExp][] = [
    ["threshold: 0.3", "compaction.threshold", /at least 0\.5/],
    ["threshold: 0.99", "compaction.threshold", /at most 0\.95/],
    ["threshold: 1", "compaction.threshold", /at most 0\.95/],
    ["threshold: -0.5", "compaction.threshold", /at least 0\.5/],
    ["threshold: high", "compaction.threshold", /must be a number/],
    ["threshold: .nan", "compaction.threshold", /must be a number/],
    ["enabled: maybe", "compaction.enabled", /true or false/],
    ["enabled: 1", "compaction.enabled", /true or false/],
    ["trigger: 0.8", "compaction.trigger", /unknown key/],
  ];
  await withTempHome(async (path) => {
    for (const [line, keyPath, message] of cases) {
      await Deno.writeTextFile(path, `version: 1\ncompaction:\n  ${line}\n`);
      await assert.rejects(() => readConfig(path), invalidAt(keyPath, message, 3), line);
    }
    await Deno.writeTextFile(path, "version: 1\ncompaction: off\n");
    await assert.rejects(() => readConfig(path), invalidAt("compaction", /object/), "a scalar");
  });
});

Deno.test("the bounds themselves are accepted", async () => {
  await withTempHome(async (path) => {
    for (const [i, threshold] of [0.5, 0.75, 0.95].entries()) {
      // Rewritten in place within a millisecond, a file of the same size looks unchanged
      // to the config cache (mtime, size, inode): each write here differs in size.
      await Deno.writeTextFile(
        path,
        `version: 1${" ".repeat(i)}\ncompaction:\n  threshold: ${threshold}\n`,
      );
      assert.equal((await readCompaction(path)).threshold, threshold);
    }
  });
});

Deno.test("writeCompaction changes only the given fields and keeps the rest of the file", async () => {
  await withTempHome(async (path) => {
    await writeConfig(path, { version: 1, skills: { disabled: ["web"] } });
    assert.deepEqual(await writeCompaction(path, { threshold: 0.7 }), {
      threshold: 0.7,
      enabled: true,
    });
    assert.deepEqual(await writeCompaction(path, { enabled: false }), {
      threshold: 0.7,
      enabled: false,
    }, "the threshold stays when only the switch changes");
    assert.deepEqual(await readCompaction(path), { threshold: 0.7, enabled: false });
    assert.deepEqual((await readConfig(path)).skills.disabled, ["web"], "other sections kept");
    assert.match(
      await Deno.readTextFile(path),
      /compaction:\n {2}threshold: 0.7\n {2}enabled: false/,
    );
  });
});

Deno.test("an unchanged write leaves the file untouched, comments included", async () => {
  await withTempHome(async (path) => {
    const text = "version: 1\n# mine\ncompaction:\n  threshold: 0.8 # why\n";
    await Deno.writeTextFile(path, text);
    assert.deepEqual(await writeCompaction(path, { threshold: 0.8 }), {
      threshold: 0.8,
      enabled: true,
    });
    assert.equal(await Deno.readTextFile(path), text);
  });
});

Deno.test("writeCompaction refuses a bad change naming the field; nothing is written", async () => {
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ threshold: 0.49 }, "compaction.threshold", /at least 0\.5/],
    [{ threshold: 0.951 }, "compaction.threshold", /at most 0\.95/],
    [{ threshold: Number.NaN }, "compaction.threshold", /number/],
    [{ threshold: "0.8" }, "compaction.threshold", /number/],
    [{ enabled: "yes" }, "compaction.enabled", /true or false/],
    [{ mode: "auto" }, "compaction.mode", /unknown key/],
  ];
  await withTempHome(async (path) => {
    const text = "version: 1\ncompaction:\n  threshold: 0.8\n";
    await Deno.writeTextFile(path, text);
    for (const [change, keyPath, message] of cases) {
      await assert.rejects(
        () => writeCompaction(path, change as { threshold?: number }),
        invalidAt(keyPath, message),
        JSON.stringify(change),
      );
      assert.equal(await Deno.readTextFile(path), text, `${JSON.stringify(change)} wrote`);
    }
  });
});

Deno.test("effectiveCompaction lays the thread's fields over config.yaml's", () => {
  const config = { threshold: 0.9, enabled: true };
  const cases: [
    Parameters<typeof effectiveCompaction>[1],
    ReturnType<typeof effectiveCompaction>,
  ][] = [
    [null, { threshold: 0.9, enabled: true, source: "config" }],
    [{}, { threshold: 0.9, enabled: true, source: "config" }],
    [{ threshold: undefined }, { threshold: 0.9, enabled: true, source: "config" }],
    [{ threshold: 0.6 }, { threshold: 0.6, enabled: true, source: "thread" }],
    [{ enabled: false }, { threshold: 0.9, enabled: false, source: "thread" }],
    [{ threshold: 0.5, enabled: false }, { threshold: 0.5, enabled: false, source: "thread" }],
  ];
  for (const [override, expected] of cases) {
    assert.deepEqual(effectiveCompaction(config, override), expected, JSON.stringify(override));
  }
  assert.deepEqual(compactionSetting({ enabled: false }), { threshold: 0.9, enabled: false });
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { parseConfig, readConfig, writeConfig } from "./config_file.ts";
import { readPermissions, writePermissions } from "./config_permissions.ts";
import { ConfigError } from "./errors.ts";
import type { PermissionsConfig } from "./config_schema.ts";

const RULES: PermissionsConfig = {
  preset: "workspace_write",
  rules: [
    { tool: "process_start", pattern: "git status", decision: "allow" },
    { tool: "group:write", pattern: "/tmp/**", decision: "ask" },
    { tool: "*", decision: "ask" },
    { tool: "memory", decision: "deny" },
  ],
};

async function withTempHome(fn: (configPath: string) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "daedalus_permissions_test_" });
  try {
    await fn(join(home, "config.yaml"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** Asserts a config_invalid error whose first issue is at `keyPath` (and says `message`). */
function invalidAt(keyPath: string, message?: RegExp, line?: number) {
  return (error: unknown) => {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${error}`);
    assert.equal(error.code, "config_invalid", error.message);
    assert.equal(error.issues[0]?.keyPath, keyPath, error.message);
    if (message) assert.match(error.issues[0]?.message ?? "", message, error.message);
    if (line !== undefined) assert.equal(error.issues[0]?.line, line, error.message);
    return true;
  };
}

Deno.test("a file without the permissions section reads as the defaults", async () => {
  await withTempHome(async (path) => {
    assert.deepEqual(await readPermissions(path), {}, "no file");
    await Deno.writeTextFile(path, "version: 1\nskills:\n  disabled: [web]\n");
    assert.deepEqual(await readPermissions(path), {}, "an old file");
    assert.equal((await readConfig(path)).permissions, undefined);
  });
});

Deno.test("writePermissions round-trips the section and keeps the rest of the file", async () => {
  await withTempHome(async (path) => {
    await writeConfig(path, { version: 1, skills: { disabled: ["web"] } });
    assert.deepEqual(await writePermissions(path, RULES), RULES);
    assert.deepEqual(await readPermissions(path), RULES);
    const text = await Deno.readTextFile(path);
    assert.deepEqual(parseConfig(text, path).permissions, RULES, "the file itself parses back");
    assert.match(text, /tool: "\*"/, "* is quoted (a bare * is a YAML alias)");
    assert.deepEqual((await readConfig(path)).skills.disabled, ["web"], "other sections kept");

    assert.deepEqual(await writePermissions(path, { preset: "ask", rules: undefined }), {
      preset: "ask",
    });
    assert.deepEqual(await writePermissions(path, {}), {});
    assert.doesNotMatch(
      await Deno.readTextFile(path),
      /permissions/,
      "an empty section is removed",
    );
  });
});

Deno.test("writePermissions refuses a bad rule naming its index and field; nothing changes", async () => {
  const cases: [unknown, string, RegExp][] = [
    [{ tool: "rm", decision: "deny" }, "permissions.rules[1].tool", /built-in tool id/],
    [{ tool: "read", decision: "never" }, "permissions.rules[1].decision", /allow, ask, deny/],
    [
      { tool: "memory", pattern: "x", decision: "allow" },
      "permissions.rules[1].pattern",
      /takes no pattern/,
    ],
    [
      { tool: "group:session", pattern: "x", decision: "allow" },
      "permissions.rules[1].pattern",
      /takes no pattern/,
    ],
    [
      { tool: "read", pattern: "src/[ab", decision: "allow" },
      "permissions.rules[1].pattern",
      /unclosed/,
    ],
    [
      { tool: "read", pattern: "{a,b", decision: "allow" },
      "permissions.rules[1].pattern",
      /unclosed/,
    ],
    [
      { tool: "process_start", pattern: "  ", decision: "allow" },
      "permissions.rules[1].pattern",
      /at least one word/,
    ],
    [
      { tool: "process_start", pattern: "", decision: "allow" },
      "permissions.rules[1].pattern",
      /empty/,
    ],
    [
      { tool: "process_start", pattern: "a; b", decision: "allow" },
      "permissions.rules[1].pattern",
      /plain words/,
    ],
    [{ tool: "read", decision: "allow", why: "x" }, "permissions.rules[1].why", /unknown key/],
    [{ tool: "read" }, "permissions.rules[1].decision", /missing|allow, ask, deny/],
  ];
  await withTempHome(async (path) => {
    await writePermissions(path, RULES);
    const before = await Deno.readTextFile(path);
    for (const [rule, keyPath, message] of cases) {
      await assert.rejects(
        writePermissions(path, { rules: [{ tool: "*", decision: "ask" }, rule as never] }),
        invalidAt(keyPath, message),
        JSON.stringify(rule),
      );
    }
    await assert.rejects(
      writePermissions(path, { preset: "yolo" as never }),
      invalidAt("permissions.preset", /preset must be one of/),
    );
    await assert.rejects(
      writePermissions(path, null as never),
      invalidAt("permissions", /object/),
    );
    await assert.rejects(
      writePermissions(path, { rules: "all" as never }),
      invalidAt("permissions.rules", /array/),
    );
    await assert.rejects(
      writePermissions(path, { extra: 1 } as never),
      invalidAt("permissions.extra", /unknown key/),
    );
    assert.equal(await Deno.readTextFile(path), before, "the file must not change");
    assert.deepEqual(await readPermissions(path), RULES);
  });
});

Deno.test("a bad permissions section in config.yaml is refused with its line", async () => {
  // Each section below follows a "version: 1" line, so its first line is line 2.
  const cases: [string, string, number][] = [
    [
      "permissions:\n  rules:\n    - {tool: read, decision: allow}\n    - tool: memory\n      pattern: x\n      decision: allow\n",
      "permissions.rules[1].pattern",
      6,
    ],
    ["permissions:\n  preset: sometimes\n", "permissions.preset", 3],
    [
      "permissions:\n  rules:\n    - {tool: edit, decision: maybe}\n",
      "permissions.rules[0].decision",
      4,
    ],
    [
      "permissions:\n  rules:\n    - {tool: read, pattern: 7, decision: allow}\n",
      "permissions.rules[0].pattern",
      4,
    ],
    ["permissions:\n  rules: {tool: read}\n", "permissions.rules", 3],
    ["permissions:\n", "permissions", 2],
  ];
  await withTempHome(async (path) => {
    for (const [section, keyPath, line] of cases) {
      const text = `version: 1\n${section}`;
      assert.throws(() => parseConfig(text, path), invalidAt(keyPath, undefined, line), section);
      await Deno.writeTextFile(path, text);
      await assert.rejects(readPermissions(path), invalidAt(keyPath), section);
      await assert.rejects(writePermissions(path, {}), invalidAt(keyPath), "a broken file is kept");
      assert.equal(await Deno.readTextFile(path), text);
    }
  });
});

Deno.test("a hand-edited section is read again after the file changes", async () => {
  await withTempHome(async (path) => {
    await writePermissions(path, RULES);
    assert.equal((await readPermissions(path)).preset, "workspace_write");
    await Deno.writeTextFile(
      path,
      'version: 1\npermissions:\n  preset: full_access\n  rules:\n    - {tool: "*", decision: deny}\n',
    );
    assert.deepEqual(await readPermissions(path), {
      preset: "full_access",
      rules: [{ tool: "*", decision: "deny" }],
    });
    const copy = await readPermissions(path);
    copy.rules?.push({ tool: "read", decision: "allow" });
    assert.equal((await readPermissions(path)).rules?.length, 1, "callers get their own copy");
  });
});

Deno.test("permissions.highRiskCommands is ask or allow, kept with the rest of the section", async () => {
  await withTempHome(async (path) => {
    await writePermissions(path, { ...RULES, highRiskCommands: "allow" });
    assert.equal((await readPermissions(path)).highRiskCommands, "allow");
    assert.deepEqual((await readPermissions(path)).rules, RULES.rules, "the rules stay");
    await assert.rejects(
      () =>
        writePermissions(path, {
          highRiskCommands: "sometimes" as PermissionsConfig["highRiskCommands"],
        }),
      invalidAt("permissions.highRiskCommands"),
    );
    assert.equal((await readPermissions(path)).highRiskCommands, "allow", "file untouched");
  });
});

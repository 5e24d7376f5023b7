import assert from "node:assert/strict";
import { join } from "node:path";
import { PERMISSION_RULES_MAX_COUNT } from "@daedalus/protocol";
import { readConfig } from "@daedalus/storage";
import { handlerCalls } from "./_test_handler_calls.ts";
import { appendPermissionRule, createPermissionHandlers } from "./permission_handlers.ts";

async function withConfig(
  fn: (configPath: string) => Promise<void>,
  configText?: string,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-permission-rpc-" });
  const configPath = join(dir, "config.yaml");
  if (configText !== undefined) await Deno.writeTextFile(configPath, configText);
  try {
    await fn(configPath);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const GIT_STATUS = { tool: "process_start", pattern: "git status", decision: "allow" } as const;
const NO_MEMORY = { tool: "group:memory", decision: "deny" } as const;

Deno.test("permission.read fills in the defaults without a config.yaml", async () => {
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createPermissionHandlers({ configPath }));
    assert.deepEqual(await call("permission.read", {}), {
      preset: "ask",
      highRiskCommands: "ask",
      rules: [],
    });
    await assert.rejects(Deno.stat(configPath), Deno.errors.NotFound, "a read writes nothing");
  });
});

Deno.test("permission.read numbers the stored rules in order", async () => {
  const text = "version: 1\npermissions:\n  preset: read_only\n  highRiskCommands: allow\n" +
    "  rules:\n    - {tool: process_start, pattern: git status, decision: allow}\n" +
    "    - {tool: group:memory, decision: deny}\n";
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createPermissionHandlers({ configPath }));
    assert.deepEqual(await call("permission.read", {}), {
      preset: "read_only",
      highRiskCommands: "allow",
      rules: [{ index: 0, ...GIT_STATUS }, { index: 1, ...NO_MEMORY }],
    });
  }, text);
});

Deno.test("permission.update changes only what it names and keeps the rest of the file", async () => {
  const text = "version: 1\nskills:\n  disabled: [csv]\npermissions:\n  rules:\n" +
    "    - {tool: group:memory, decision: deny}\n";
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createPermissionHandlers({ configPath }));
    const updated = await call("permission.update", { preset: "workspace_write" });
    assert.equal(updated.preset, "workspace_write");
    assert.equal(updated.highRiskCommands, "ask", "highRiskCommands keeps its default");
    assert.deepEqual(updated.rules, [{ index: 0, ...NO_MEMORY }], "the rules are kept");
    const config = await readConfig(configPath);
    assert.deepEqual(config.permissions, { preset: "workspace_write", rules: [NO_MEMORY] });
    assert.deepEqual(config.skills.disabled, ["csv"], "the other sections are kept");

    await call("permission.update", { highRiskCommands: "allow" });
    assert.deepEqual((await readConfig(configPath)).permissions, {
      preset: "workspace_write",
      highRiskCommands: "allow",
      rules: [NO_MEMORY],
    });
  }, text);
});

Deno.test("permission.update with nothing new leaves the file byte for byte", async () => {
  const text = "version: 1\n# the user's comment\npermissions:\n  preset: ask\n";
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createPermissionHandlers({ configPath }));
    await call("permission.update", { preset: "ask" });
    await call("permission.update", {});
    assert.equal(await Deno.readTextFile(configPath), text);
  }, text);
});

Deno.test("permission.addRule appends, so the new rule wins over the earlier ones", async () => {
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createPermissionHandlers({ configPath }));
    await call("permission.addRule", { rule: NO_MEMORY });
    const added = await call("permission.addRule", { rule: GIT_STATUS });
    assert.deepEqual(added.rules, [{ index: 0, ...NO_MEMORY }, { index: 1, ...GIT_STATUS }]);
    assert.deepEqual((await readConfig(configPath)).permissions?.rules, [NO_MEMORY, GIT_STATUS]);
  }, "version: 1\n");
});

Deno.test("permission.addRule is idempotent on clientRequestId", async () => {
  await withConfig(async (configPath) => {
    const { call, refuse } = handlerCalls(createPermissionHandlers({ configPath }));
    await call("permission.addRule", { rule: GIT_STATUS, clientRequestId: "add-1" });
    const again = await call("permission.addRule", { rule: GIT_STATUS, clientRequestId: "add-1" });
    assert.equal(again.rules.length, 1, "a retried request must not append the rule twice");
    const conflict = await refuse("permission.addRule", {
      rule: NO_MEMORY,
      clientRequestId: "add-1",
    });
    assert.equal(conflict.reasonCode, "idempotency_conflict");
    assert.equal((await readConfig(configPath)).permissions?.rules?.length, 1);
    await call("permission.addRule", { rule: GIT_STATUS, clientRequestId: "add-2" });
    assert.equal((await readConfig(configPath)).permissions?.rules?.length, 2);
  }, "version: 1\n");
});

Deno.test("permission.addRule refuses a bad rule naming its field and stores nothing", async () => {
  const text = "version: 1\npermissions:\n  rules:\n    - {tool: group:memory, decision: deny}\n";
  const cases: { rule: Record<string, unknown>; reason: string; field: string }[] = [
    { rule: { tool: "rm_everything", decision: "allow" }, reason: "invalid_params", field: "tool" },
    { rule: { tool: "read", decision: "maybe" }, reason: "invalid_params", field: "decision" },
    {
      rule: { tool: "read", pattern: "src/[z-a].ts", decision: "allow" },
      reason: "invalid_params",
      field: "pattern",
    },
    {
      rule: { tool: "process_start", pattern: "git status && rm", decision: "allow" },
      reason: "invalid_params",
      field: "pattern",
    },
    {
      rule: { tool: "memory", pattern: "x", decision: "allow" },
      reason: "invalid_params",
      field: "pattern",
    },
    { rule: { tool: "read", decision: "allow", why: "x" }, reason: "unknown_field", field: "why" },
  ];
  await withConfig(async (configPath) => {
    const { refuse } = handlerCalls(createPermissionHandlers({ configPath }));
    for (const { rule, reason, field } of cases) {
      const error = await refuse("permission.addRule", { rule });
      const label = JSON.stringify(rule);
      assert.equal(error.code, -32602, label);
      assert.equal(error.reasonCode, reason, `${label}: ${error.message}`);
      assert.equal(error.data?.field, `rule.${field}`, `${label} must name rule.${field}`);
      assert.equal(await Deno.readTextFile(configPath), text, `${label} changed config.yaml`);
    }
  }, text);
});

Deno.test("permission.addRule refuses past the rule limit with config_invalid", async () => {
  const rules = Array.from(
    { length: PERMISSION_RULES_MAX_COUNT },
    (_, i) => `    - {tool: process_start, pattern: tool-${i}, decision: allow}\n`,
  ).join("");
  const text = `version: 1\npermissions:\n  rules:\n${rules}`;
  await withConfig(async (configPath) => {
    const { refuse } = handlerCalls(createPermissionHandlers({ configPath }));
    const error = await refuse("permission.addRule", { rule: NO_MEMORY });
    assert.equal(error.reasonCode, "config_invalid", error.message);
    assert.equal(error.data?.field, "permissions.rules");
    assert.equal(await Deno.readTextFile(configPath), text);
  }, text);
});

Deno.test("permission.removeRule removes the rule at its index", async () => {
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createPermissionHandlers({ configPath }));
    await call("permission.addRule", { rule: NO_MEMORY });
    await call("permission.addRule", { rule: GIT_STATUS });
    const removed = await call("permission.removeRule", { index: 0, rule: NO_MEMORY });
    assert.deepEqual(removed.rules, [{ index: 0, ...GIT_STATUS }]);
    await call("permission.removeRule", { index: 0, rule: GIT_STATUS });
    const config = await readConfig(configPath);
    assert.equal(config.permissions, undefined, "an empty rules list leaves no empty section");
  }, "version: 1\n");
});

Deno.test("permission.removeRule keeps the preset when the last rule goes", async () => {
  const text = "version: 1\npermissions:\n  preset: full_access\n  rules:\n" +
    "    - {tool: group:memory, decision: deny}\n";
  await withConfig(async (configPath) => {
    const { call } = handlerCalls(createPermissionHandlers({ configPath }));
    const result = await call("permission.removeRule", { index: 0, rule: NO_MEMORY });
    assert.deepEqual(result, { preset: "full_access", highRiskCommands: "ask", rules: [] });
    assert.deepEqual((await readConfig(configPath)).permissions, { preset: "full_access" });
  }, text);
});

Deno.test("permission.removeRule of a stale rule is refused and removes nothing", async () => {
  const text = "version: 1\npermissions:\n  rules:\n" +
    "    - {tool: process_start, pattern: git status, decision: allow}\n";
  const stale: { index: number; rule: Record<string, unknown> }[] = [
    { index: 0, rule: NO_MEMORY },
    { index: 0, rule: { ...GIT_STATUS, decision: "deny" } },
    { index: 0, rule: { tool: "process_start", decision: "allow" } },
    { index: 1, rule: GIT_STATUS },
  ];
  await withConfig(async (configPath) => {
    const { refuse } = handlerCalls(createPermissionHandlers({ configPath }));
    for (const params of stale) {
      const error = await refuse("permission.removeRule", params);
      assert.equal(error.reasonCode, "permission_rule_changed", JSON.stringify(params));
      assert.equal(error.code, -32602);
      assert.equal(await Deno.readTextFile(configPath), text, "nothing may be removed");
    }
  }, text);
});

Deno.test("a broken config.yaml is refused with config_invalid and never overwritten", async () => {
  const text = "version: 1\npermissions:\n  preset: sometimes\n";
  await withConfig(async (configPath) => {
    const { refuse } = handlerCalls(createPermissionHandlers({ configPath }));
    const calls = [
      ["permission.read", {}],
      ["permission.update", { preset: "ask" }],
      ["permission.addRule", { rule: NO_MEMORY }],
      ["permission.removeRule", { index: 0, rule: NO_MEMORY }],
    ] as const;
    for (const [method, params] of calls) {
      const error = await refuse(method, params);
      assert.equal(error.code, -32602, method);
      assert.equal(error.reasonCode, "config_invalid", `${method}: ${error.message}`);
    }
    assert.equal(await Deno.readTextFile(configPath), text);
  }, text);
});

Deno.test("config error messages pass through the protected values", async () => {
  await withConfig(async (configPath) => {
    const redact = (text: string) => text.replaceAll("sometimes", "[redacted]");
    const { refuse } = handlerCalls(
      createPermissionHandlers({ configPath, protectedValues: { redact } }),
    );
    const error = await refuse("permission.read", {});
    assert.match(error.message, /preset/);
    assert.doesNotMatch(error.message, /sometimes/);
  }, "version: 1\npermissions:\n  preset: sometimes\n");
});

Deno.test("appendPermissionRule (allow_always) writes the rule a later read sees", async () => {
  await withConfig(async (configPath) => {
    const written = await appendPermissionRule(configPath, GIT_STATUS);
    assert.deepEqual(written.rules, [GIT_STATUS]);
    const { call } = handlerCalls(createPermissionHandlers({ configPath }));
    assert.deepEqual((await call("permission.read", {})).rules, [{ index: 0, ...GIT_STATUS }]);
  });
});

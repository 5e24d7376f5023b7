import assert from "node:assert/strict";
import type { PermissionsView } from "@daedalus/client";
import { fakeCall, rpcFailure } from "./_fake_call.ts";
import {
  addPermissionRule,
  emptyPermissionSettings,
  loadPermissionSettings,
  permissionSettings,
  removePermissionRule,
  ruleFromForm,
  updatePermissionSettings,
} from "./permission_settings.ts";

const view = (over: Partial<PermissionsView> = {}): PermissionsView => ({
  preset: "ask",
  highRiskCommands: "ask",
  rules: [],
  ...over,
});
const GIT = { tool: "process_start", pattern: "git status", decision: "allow" } as const;

Deno.test("permissions: load fills the view; a failed read keeps the last answer", async () => {
  permissionSettings.value = emptyPermissionSettings();
  await loadPermissionSettings(
    fakeCall({ "permission.read": () => view({ preset: "read_only" }) }).call,
  );
  assert.equal(permissionSettings.value.status, "ready");
  assert.equal(permissionSettings.value.settings?.preset, "read_only");
  await loadPermissionSettings(
    fakeCall({
      "permission.read": () => {
        throw rpcFailure("config_invalid", "config.yaml is broken");
      },
    }).call,
  );
  assert.equal(permissionSettings.value.status, "failed");
  assert.equal(permissionSettings.value.error?.code, "config_invalid");
  assert.equal(permissionSettings.value.errorAt, "load");
  assert.equal(permissionSettings.value.settings?.preset, "read_only");
});

Deno.test("permissions: a preset change sends only the preset and shows the answer", async () => {
  permissionSettings.value = { ...emptyPermissionSettings(), status: "ready", settings: view() };
  const fake = fakeCall({
    "permission.update": (p) => view({ preset: p.preset as "full_access" }),
  });
  assert.equal(await updatePermissionSettings({ preset: "full_access" }, fake.call), true);
  assert.deepEqual(fake.calls[0]?.params, { preset: "full_access" });
  assert.equal(permissionSettings.value.settings?.preset, "full_access");
  assert.equal(permissionSettings.value.saving, false);
});

Deno.test("permissions: a refused rule keeps the list and shows the reason", async () => {
  permissionSettings.value = { ...emptyPermissionSettings(), status: "ready", settings: view() };
  const fake = fakeCall({
    "permission.addRule": () => {
      throw rpcFailure("invalid_params", 'Invalid "rule.pattern" in params of permission.addRule');
    },
  });
  assert.equal(
    await addPermissionRule(
      ruleFromForm({ tool: "read", pattern: "[", decision: "allow" }),
      fake.call,
    ),
    false,
  );
  assert.equal(permissionSettings.value.error?.code, "invalid_params");
  assert.equal(permissionSettings.value.errorAt, "rules", "shown beside the rules");
  assert.match(permissionSettings.value.error?.message ?? "", /rule\.pattern/);
  assert.deepEqual(permissionSettings.value.settings?.rules, []);
});

Deno.test("permissions: an added rule lands the runtime's list and clears the error", async () => {
  permissionSettings.value = {
    ...emptyPermissionSettings(),
    status: "ready",
    settings: view(),
    error: { code: "invalid_params", message: "earlier" },
    errorAt: "rules",
  };
  const fake = fakeCall({ "permission.addRule": () => view({ rules: [{ index: 0, ...GIT }] }) });
  assert.equal(await addPermissionRule(GIT, fake.call), true);
  assert.deepEqual(fake.calls[0]?.params.rule, GIT);
  assert.equal(typeof fake.calls[0]?.params.clientRequestId, "string");
  assert.equal(permissionSettings.value.settings?.rules.length, 1);
  assert.equal(permissionSettings.value.error, null);
  assert.equal(permissionSettings.value.errorAt, null);
});

Deno.test("permissions: remove names the rule; a stale list is reloaded and the reason kept", async () => {
  const stored = view({ rules: [{ index: 0, tool: "group:memory", decision: "deny" }] });
  permissionSettings.value = {
    ...emptyPermissionSettings(),
    status: "ready",
    settings: view({ rules: [{ index: 0, ...GIT }] }),
  };
  const fake = fakeCall({
    "permission.removeRule": () => {
      throw rpcFailure("permission_rule_changed", "The rule at index 0 is not the one to remove");
    },
    "permission.read": () => stored,
  });
  assert.equal(await removePermissionRule({ index: 0, ...GIT }, fake.call), false);
  assert.deepEqual(fake.calls[0]?.params, { index: 0, rule: GIT });
  assert.deepEqual(permissionSettings.value.settings, stored, "the stored list is shown");
  assert.equal(permissionSettings.value.error?.code, "permission_rule_changed");
  assert.equal(permissionSettings.value.errorAt, "rules");
});

Deno.test("permissions: a change while another is saving is ignored", async () => {
  permissionSettings.value = {
    ...emptyPermissionSettings(),
    status: "ready",
    settings: view(),
    saving: true,
  };
  const fake = fakeCall({});
  assert.equal(await updatePermissionSettings({ preset: "ask" }, fake.call), false);
  assert.equal(fake.calls.length, 0);
});

Deno.test("ruleFromForm: a blank pattern means any target", () => {
  assert.deepEqual(ruleFromForm({ tool: "group:memory", pattern: "  ", decision: "deny" }), {
    tool: "group:memory",
    decision: "deny",
  });
  assert.deepEqual(
    ruleFromForm({ tool: "process_start", pattern: " git status ", decision: "allow" }),
    GIT,
  );
});

Deno.test("permissions: a refused preset change is shown beside the defaults", async () => {
  permissionSettings.value = { ...emptyPermissionSettings(), status: "ready", settings: view() };
  const fake = fakeCall({
    "permission.update": () => {
      throw rpcFailure("config_invalid", "config.yaml is broken");
    },
  });
  assert.equal(await updatePermissionSettings({ preset: "read_only" }, fake.call), false);
  assert.equal(permissionSettings.value.errorAt, "defaults");
  assert.equal(permissionSettings.value.settings?.preset, "ask", "the stored preset stays shown");
});

/**
 * What the permission rules cost per tool call (the gate's budget is 0.2 ms in all): the
 * `ask` preset plus 40 config rules, for a path call and a compound command, and the
 * target derivation. Run with `deno task bench`.
 */
import type { PermissionRule } from "@daedalus/protocol";
import { callTarget } from "./call_target.ts";
import { decide, permissionRuleSet } from "./permission_rules.ts";

const rules: PermissionRule[] = Array.from({ length: 20 }, (_, i): PermissionRule[] => [
  { tool: "read", pattern: `generated/part_${i}/**/*.{ts,js}`, decision: "deny" },
  { tool: "process_start", pattern: `npm run task${i}`, decision: "allow" },
]).flat();
const ruleSet = permissionRuleSet({ preset: "ask", rules });
const roots = {
  workspaceRoot: "/home/me/project",
  artifactsFolder: "/home/me/.daedalus/artifacts/t",
};
const readCall = {
  toolId: "read",
  risk: "read" as const,
  target: callTarget("read", { path: "src/deep/folder/module.ts" }, roots),
};
const commandCall = {
  toolId: "process_start",
  risk: "process" as const,
  target: callTarget("process_start", {
    command: "FOO=1 npm run task7 -- --watch 2>&1 && git status -s | head -n 20",
  }, roots),
};

Deno.bench("decide: a read inside the workspace, ask preset + 40 rules", () => {
  decide(ruleSet, readCall);
});

Deno.bench("decide: a compound command, ask preset + 40 rules", () => {
  decide(ruleSet, commandCall);
});

Deno.bench("callTarget: a file tool's path", () => {
  callTarget("edit", { path: "src/deep/folder/module.ts", oldString: "a", newString: "b" }, roots);
});

Deno.bench("permissionRuleSet: compile the ask preset + 40 rules (once per Run)", () => {
  permissionRuleSet({ preset: "ask", rules });
});

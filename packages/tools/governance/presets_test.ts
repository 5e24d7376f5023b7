import assert from "node:assert/strict";
import {
  type ExecutionPolicy,
  PERMISSION_PRESETS,
  TOOL_IDS,
  TOOL_PATTERN_KINDS,
} from "@daedalus/protocol";
import { BUILTIN_TOOLS } from "../builtin.ts";
import { permissionRefusal } from "../permission.ts";
import { accessRulesOf, assertAllowed } from "../files/access.ts";
import type { ToolContext, ToolDefinition } from "../tool.ts";
import { callTarget } from "./call_target.ts";
import { decide, permissionRuleSet } from "./permission_rules.ts";
import { DEFAULT_PERMISSION_PRESET, PERMISSION_PRESET_RULES } from "./presets.ts";

const workspaceRoot = "/ws";
const MODES: readonly ExecutionPolicy[] = ["read_only", "workspace_write", "full_access"];
const PLACES = ["inside", "outside"] as const;

/** Arguments touching a path inside or outside the workspace (or a command). */
function argsOf(place: "inside" | "outside"): unknown {
  return { path: pathOf(place), command: "git status" };
}

function pathOf(place: "inside" | "outside"): string {
  return place === "inside" ? "/ws/src/a.ts" : "/etc/hosts";
}

/**
 * What a Run of `mode` did before rules: permission.ts refuses by risk class, and in the
 * sealed modes access.ts refuses paths outside the workspace (its read and write roots).
 */
async function todaysDecision(
  tool: ToolDefinition<unknown>,
  mode: ExecutionPolicy,
  place: "inside" | "outside",
): Promise<"allow" | "deny"> {
  if (permissionRefusal(tool, mode) !== null) return "deny";
  if (TOOL_PATTERN_KINDS[tool.id as typeof TOOL_IDS[number]] !== "path") return "allow";
  const rules = await accessRulesOf({
    workspaceRoot,
    artifactsRoot: "/h/artifacts",
    threadId: "t1",
    executionPolicy: mode,
    protectedFiles: [],
  } as unknown as ToolContext);
  try {
    assertAllowed(pathOf(place), rules, tool.risk === "write" ? "write" : "read", pathOf(place));
    return "allow";
  } catch {
    return "deny";
  }
}

Deno.test("the 23 built-in tools are the protocol's, each with the pattern kind of its risk", () => {
  assert.deepEqual(BUILTIN_TOOLS.map((tool) => tool.id).sort(), [...TOOL_IDS].sort());
  for (const tool of BUILTIN_TOOLS) {
    const kind = TOOL_PATTERN_KINDS[tool.id as typeof TOOL_IDS[number]];
    if (kind === "path") assert.ok(["read", "write"].includes(tool.risk), `${tool.id} risk`);
    if (kind === "command") assert.equal(tool.risk, "process", `${tool.id} risk`);
  }
});

Deno.test("read_only, workspace_write and full_access reproduce today's decisions", async () => {
  let checked = 0;
  for (const mode of MODES) {
    const ruleSet = permissionRuleSet({ preset: mode });
    for (const tool of BUILTIN_TOOLS) {
      for (const place of PLACES) {
        const target = callTarget(tool.id, argsOf(place), { workspaceRoot });
        const verdict = decide(ruleSet, { toolId: tool.id, risk: tool.risk, target });
        assert.equal(
          verdict.decision,
          await todaysDecision(tool, mode, place),
          `${mode}: ${tool.id} ${place} (decided by ${verdict.origin}[${verdict.index}])`,
        );
        checked++;
      }
    }
  }
  assert.equal(checked, 3 * 23 * 2);
});

Deno.test("ask: reads and writes inside, memory and watching processes run; the rest asks", () => {
  const ruleSet = permissionRuleSet({});
  const expected: Record<string, { inside: string; outside: string }> = {};
  for (const tool of BUILTIN_TOOLS) {
    const kind = TOOL_PATTERN_KINDS[tool.id as typeof TOOL_IDS[number]];
    const watchesProcess = ["process_read", "process_wait", "process_stop", "process_resize"]
      .includes(tool.id);
    const byRisk = tool.risk === "read" || tool.risk === "memory" || tool.risk === "write" ||
        watchesProcess
      ? "allow"
      : "ask";
    expected[tool.id] = { inside: byRisk, outside: kind === "path" ? "ask" : byRisk };
  }
  for (const tool of BUILTIN_TOOLS) {
    for (const place of PLACES) {
      const target = callTarget(tool.id, argsOf(place), { workspaceRoot });
      assert.equal(
        decide(ruleSet, { toolId: tool.id, risk: tool.risk, target }).decision,
        expected[tool.id]?.[place],
        `ask: ${tool.id} ${place}`,
      );
    }
  }
  // Spelled out, so the table above cannot drift into agreeing with a wrong preset.
  const spot: [string, string, "inside" | "outside", string][] = [
    ["read", "read", "inside", "allow"],
    ["read", "read", "outside", "ask"],
    ["write", "write", "inside", "allow"],
    ["edit", "write", "outside", "ask"],
    ["process_start", "process", "inside", "ask"],
    ["process_read", "process", "inside", "allow"],
    ["process_write", "process", "inside", "ask"],
    ["thread_create", "session", "inside", "ask"],
    ["thread_read", "read", "inside", "allow"],
    ["memory", "memory", "inside", "allow"],
    ["ask_user", "read", "outside", "allow"],
    ["plan", "read", "outside", "allow"],
  ];
  for (const [toolId, risk, place, decision] of spot) {
    const target = callTarget(toolId, { path: place === "inside" ? "a" : "/a", command: "ls" }, {
      workspaceRoot,
    });
    assert.equal(
      decide(ruleSet, { toolId, risk: risk as "read", target }).decision,
      decision,
      `ask: ${toolId} ${place}`,
    );
  }
});

Deno.test("every preset is valid, named in the protocol, and ask is the default", () => {
  assert.deepEqual(Object.keys(PERMISSION_PRESET_RULES).sort(), [...PERMISSION_PRESETS].sort());
  assert.equal(DEFAULT_PERMISSION_PRESET, "ask");
  for (const preset of PERMISSION_PRESETS) {
    const ruleSet = permissionRuleSet({ preset });
    assert.equal(ruleSet.size, PERMISSION_PRESET_RULES[preset].rules.length, preset);
    assert.equal(ruleSet.fallback, PERMISSION_PRESET_RULES[preset].fallback, preset);
  }
});

Deno.test("config rules win over a preset: full_access can still ask for git push", () => {
  const ruleSet = permissionRuleSet({
    preset: "full_access",
    rules: [{ tool: "process_start", pattern: "git push", decision: "ask" }],
  });
  const target = (command: string) => callTarget("process_start", { command }, { workspaceRoot });
  const verdict = decide(ruleSet, {
    toolId: "process_start",
    risk: "process",
    target: target("git push origin"),
  });
  assert.deepEqual([verdict.decision, verdict.origin, verdict.index], ["ask", "config", 0]);
  assert.equal(
    decide(ruleSet, { toolId: "process_start", risk: "process", target: target("git log") })
      .decision,
    "allow",
  );
});

/**
 * Permission rules and their settings, as config.yaml, the RPC and the PWA share them.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import {
  PERMISSION_DECISIONS,
  PERMISSION_PRESETS,
  PERMISSION_TOOL_GROUPS,
  TOOL_IDS,
} from "../../enums.ts";
import { PERMISSION_RULES_MAX_COUNT } from "../../limits.ts";
import { mcpRuleTarget, permissionPatternProblem } from "../../permission_rules.ts";

export const PermissionDecision = z.enum(PERMISSION_DECISIONS, {
  error: `decision must be one of ${PERMISSION_DECISIONS.join(", ")}`,
}).register(docs, {
  description: "What a permission rule decides for a call: `allow`, `ask` (the user) or `deny`.",
});

export const PermissionPreset = z.enum(PERMISSION_PRESETS, {
  error: `preset must be one of ${PERMISSION_PRESETS.join(", ")}`,
}).register(docs, {
  description: "A named list of permission rules: `read_only`, `ask` (the default), " +
    "`workspace_write`, `full_access`.",
});

const RULE_TOOLS: readonly string[] = ["*", ...PERMISSION_TOOL_GROUPS, ...TOOL_IDS];

export const PermissionRuleTool = z.string().refine(
  (tool) => RULE_TOOLS.includes(tool) || mcpRuleTarget(tool) !== null,
  {
    // Names the value at fault: a rule with a typo is found by what it says.
    error: (issue) =>
      `tool ${JSON.stringify(String(issue.input).slice(0, 64))} is not a built-in tool id, a ` +
      "group (group:read, group:write, group:process, group:session, group:memory), " +
      "mcp:<server>, mcp:<server>/<tool> or *",
  },
).register(docs, {
  description: "What a permission rule is for: one built-in tool id, a group (the tools' risk " +
    "class: `group:read`, `group:write`, `group:process`, `group:session`, `group:memory`), " +
    "the tools of a configured MCP server (`mcp:<server>`) or one of them by the name the " +
    "server lists it under (`mcp:<server>/<tool>`), or `*` (every tool).",
});

export const PermissionRule = z.strictObject({
  tool: PermissionRuleTool,
  /** What the call touches: a path glob (file tools) or a command prefix (process_start). */
  pattern: z.string().optional(),
  decision: PermissionDecision,
}).superRefine((rule, ctx) => {
  if (rule.pattern === undefined) return;
  const problem = permissionPatternProblem(rule.tool, rule.pattern);
  if (problem !== null) ctx.addIssue({ code: "custom", path: ["pattern"], message: problem });
}).register(docs, {
  description: "One permission rule: for `tool`, calls that touch `pattern` (a path glob, " +
    "relative to the workspace or absolute, for file tools; a word-wise command prefix for " +
    "process tools; none for session and memory tools) get `decision`. In a list, the last " +
    "matching rule wins.",
});

export const PermissionRules = z.array(PermissionRule).max(PERMISSION_RULES_MAX_COUNT, {
  error: `at most ${PERMISSION_RULES_MAX_COUNT} rules`,
}).register(docs, { description: "An ordered list of permission rules; the last match wins." });

export const HighRiskCommands = z.enum(["ask", "allow"]).register(docs, {
  description: "What a high-risk command (`process_start`) gets: `ask` needs the user's " +
    "approval every time (`high_risk_command`); `allow` runs it as the permission rules decide.",
});

export const PermissionSettings = z.strictObject({
  preset: PermissionPreset.optional(),
  rules: PermissionRules.optional(),
  highRiskCommands: HighRiskCommands.optional(),
}).register(docs, {
  description: "Permission settings (config.yaml's `permissions`, a thread's own): a preset " +
    "(default `ask`), rules checked after the preset's, so they win over it, and what " +
    "high-risk commands get (default `ask`).",
});

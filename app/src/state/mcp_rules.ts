/**
 * Permission rules that name MCP tools, as the PWA reads and writes them: `mcp:<server>`
 * (every tool of a configured server) and `mcp:<server>/<tool>` (one tool, by its own
 * name on the server). Settings › Permissions shows such rules readably and offers the
 * configured servers and their tools in its picker; Settings › Tools (MCP) sets one
 * tool's decision with a quick Always allow / Ask / Deny that writes or removes the
 * tool's own rule. The pure parts (labels, suggestions, the plan of a choice) are
 * separate from {@linkcode applyMcpToolChoice}, which sends the plan.
 *
 * @module
 */
import { mcpRuleTarget, type McpServer, type PermissionRule } from "@daedalus/client";
import type { PermissionsView } from "@daedalus/client";
import {
  addPermissionRule,
  permissionSettings,
  removePermissionRule,
} from "./permission_settings.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** What a rule's `tool` names, for showing it. */
export type RuleToolName =
  | { kind: "builtin"; tool: string }
  | { kind: "mcpServer"; server: string }
  | { kind: "mcpTool"; server: string; tool: string };

/**
 * What a rule's `tool` names: a built-in tool, group or `*`; all tools of an MCP server;
 * or one MCP tool.
 *
 * @param tool a rule's `tool`
 * @returns its reading
 */
export function ruleToolName(tool: string): RuleToolName {
  const target = mcpRuleTarget(tool);
  if (target === null) return { kind: "builtin", tool };
  return target.tool === null
    ? { kind: "mcpServer", server: target.server }
    : { kind: "mcpTool", server: target.server, tool: target.tool };
}

/**
 * The rule `tool` naming one MCP tool (or, without `tool`, all of a server's), or null
 * when the names cannot be put in a rule (a tool name with characters rules refuse).
 *
 * @param server the server's name
 * @param tool the tool's own name on the server
 * @returns `mcp:<server>/<tool>`, `mcp:<server>`, or null
 */
export function mcpRuleTool(server: string, tool?: string): string | null {
  const name = tool === undefined ? `mcp:${server}` : `mcp:${server}/${tool}`;
  return mcpRuleTarget(name) === null ? null : name;
}

/** One suggestion of the rule form's tool picker: the value typed and what it means. */
export interface RuleToolSuggestion {
  /** The rule's `tool`. */
  value: string;
  /** What it names, for the label. */
  name: RuleToolName;
}

/**
 * The picker's MCP suggestions: per configured server (in the list's order) all of its
 * tools, then each tool it lists (whether switched on or not: a rule may be written
 * before a tool is switched on). Names a rule cannot hold are left out.
 *
 * @param servers the servers from `mcp.list`
 * @returns the suggestions
 */
export function mcpRuleSuggestions(servers: readonly McpServer[]): RuleToolSuggestion[] {
  const suggestions: RuleToolSuggestion[] = [];
  for (const server of servers) {
    const all = mcpRuleTool(server.name);
    if (all === null) continue;
    suggestions.push({ value: all, name: ruleToolName(all) });
    for (const tool of server.tools) {
      const one = mcpRuleTool(server.name, tool.name);
      if (one !== null) suggestions.push({ value: one, name: ruleToolName(one) });
    }
  }
  return suggestions;
}

/** A listed rule, with its index in config.yaml. */
export type ListedRule = PermissionsView["rules"][number];

/**
 * The decision of the tool's own rule (`mcp:<server>/<tool>`; the last one when there are
 * several, as the gate takes the last matching rule), or null when it has none.
 *
 * @param rules the listed rules
 * @param server the server's name
 * @param tool the tool's own name
 * @returns the decision, or null
 */
export function mcpToolRuleDecision(
  rules: readonly ListedRule[],
  server: string,
  tool: string,
): PermissionRule["decision"] | null {
  const name = mcpRuleTool(server, tool);
  const own = rules.filter((rule) => rule.tool === name && rule.pattern === undefined);
  return own.at(-1)?.decision ?? null;
}

/** What a quick choice sends: rules to remove (highest index first), then one to add. */
export interface McpToolChoicePlan {
  /** The tool's own rules, highest index first, so each removal leaves the others' index. */
  remove: ListedRule[];
  /** The rule to append (it wins over earlier ones), or null. */
  add: PermissionRule | null;
}

/**
 * What choosing `decision` for one tool sends: its own rules are replaced by one rule with
 * that decision, appended so it wins over a server-wide rule; choosing the decision its
 * rule already has removes the rule (the tool falls back to the other rules and the
 * server's default). Null when the names cannot be put in a rule.
 *
 * @param rules the listed rules
 * @param server the server's name
 * @param tool the tool's own name
 * @param decision the choice
 * @returns the plan, or null
 */
export function mcpToolChoicePlan(
  rules: readonly ListedRule[],
  server: string,
  tool: string,
  decision: PermissionRule["decision"],
): McpToolChoicePlan | null {
  const name = mcpRuleTool(server, tool);
  if (name === null) return null;
  const current = mcpToolRuleDecision(rules, server, tool);
  const remove = rules
    .filter((rule) => rule.tool === name && rule.pattern === undefined)
    .sort((a, b) => b.index - a.index);
  const add = current === decision
    ? null
    : { tool: name as PermissionRule["tool"], decision } satisfies PermissionRule;
  return { remove, add };
}

/**
 * Sends a quick choice for one tool through `permission.removeRule`/`permission.addRule`,
 * from the settings Settings › Permissions last read; stops at the first refusal (kept in
 * the permission settings' error, shown by both sections).
 *
 * @param server the server's name
 * @param tool the tool's own name
 * @param decision the choice
 * @param call the RPC call, the app's connection by default
 * @returns whether every step was accepted
 */
export async function applyMcpToolChoice(
  server: string,
  tool: string,
  decision: PermissionRule["decision"],
  call: RpcCall = liveCall,
): Promise<boolean> {
  const settings = permissionSettings.value.settings;
  if (settings === null || permissionSettings.value.saving) return false;
  const plan = mcpToolChoicePlan(settings.rules, server, tool, decision);
  if (plan === null) return false;
  for (const rule of plan.remove) {
    if (!await removePermissionRule(rule, call)) return false;
  }
  return plan.add === null ? true : await addPermissionRule(plan.add, call);
}

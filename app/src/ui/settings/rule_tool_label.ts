/**
 * How Settings shows a permission rule's `tool`: built-in tools and groups as they are
 * written, MCP rules in words ("All tools of server github", "github · create_issue").
 *
 * @module
 */
import { t } from "../../i18n/i18n.ts";
import { type RuleToolName, ruleToolName } from "../../state/mcp_rules.ts";

/**
 * The words for what a rule's `tool` names.
 *
 * @param tool a rule's `tool`, or its reading
 * @returns the label
 */
export function ruleToolLabel(tool: string | RuleToolName): string {
  const name = typeof tool === "string" ? ruleToolName(tool) : tool;
  switch (name.kind) {
    case "builtin":
      return name.tool;
    case "mcpServer":
      return t("permissions.rule.mcpServer", { server: name.server });
    case "mcpTool":
      return t("permissions.rule.mcpTool", { server: name.server, tool: name.tool });
  }
}

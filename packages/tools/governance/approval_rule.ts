/**
 * The rule an approval's `allow_thread` / `allow_always` answer adds: allow this tool on
 * exactly what the call touched — the path (a glob matching that one path), the command
 * line (a command prefix of its words), or the tool alone for tools without a pattern.
 * An MCP tool's rule names its server and tool (`mcp:<server>/<tool>`). A call a rule
 * cannot name (a command with shell syntax, a path a glob cannot spell) has none, and its
 * approval offers only allow once and deny.
 *
 * @module
 */
import {
  permissionPatternKind,
  permissionPatternProblem,
  type PermissionRule,
} from "@daedalus/protocol";
import type { CallTarget } from "./call_target.ts";

/** Glob syntax, each spelled as a one-character class so it matches only itself. */
const GLOB_SPECIAL = /[*?[\]{}]/g;

/**
 * The rule that allows calls like this one, or null.
 *
 * @param toolId the tool
 * @param target what the call touches (`callTarget` / `resolveCallTarget`)
 * @param mcp an MCP tool's server and own name
 * @returns a valid allow rule, or null
 * @example
 * ```ts
 * approvalRule("process_start", { kind: "command", command: "npm test" });
 * // { tool: "process_start", pattern: "npm test", decision: "allow" }
 * ```
 */
export function approvalRule(
  toolId: string,
  target: CallTarget,
  mcp?: { readonly server: string; readonly tool: string },
): PermissionRule | null {
  // An MCP tool is named by its server and the server's own name for it (the offered name
  // may be shortened); a name no rule can spell gets none.
  if (mcp !== undefined) {
    const tool = `mcp:${mcp.server}/${mcp.tool}`;
    return permissionPatternKind(tool) === "none" ? { tool, decision: "allow" } : null;
  }
  const kind = permissionPatternKind(toolId);
  if (kind === null) return null;
  if (kind === "none") return { tool: toolId as PermissionRule["tool"], decision: "allow" };
  const pattern = patternOf(kind, target);
  if (pattern === null || permissionPatternProblem(toolId, pattern) !== null) return null;
  return { tool: toolId as PermissionRule["tool"], pattern, decision: "allow" };
}

function patternOf(kind: "path" | "command", target: CallTarget): string | null {
  if (kind === "command") {
    if (target.kind !== "command") return null;
    // Word-wise: the prefix is the command's words; shell syntax makes it unnameable.
    const words = target.command.trim().split(/\s+/).filter((word) => word !== "");
    return words.length === 0 ? null : words.join(" ");
  }
  if (target.kind !== "path") return null;
  // Inside the workspace a relative glob (the workspace itself is "**"'s root: no rule
  // names it alone); outside, the absolute path.
  const path = target.workspacePath ?? target.path.replaceAll("\\", "/");
  if (path === "") return null;
  return path.replace(GLOB_SPECIAL, (char) => `[${char}]`);
}

/**
 * Seed 003's selection rule, in one place: a profile's `tools`, `skills` and `mcpServers`
 * absent = everything the user may use, `[]` = none, a list = only those; its
 * `subagents` absent or `[]` = all, a list = those. A selection only ever narrows what
 * is available: a name that is not available (a tool removed since, a disabled skill)
 * selects nothing.
 *
 * @example
 * ```ts
 * selectNames(undefined, ["read", "write"]); // ["read", "write"]
 * selectNames([], ["read", "write"]);        // []
 * selectNames(["read", "grep"], ["read", "write"]); // ["read"]
 * ```
 *
 * @module
 */
import type { AgentProfile } from "@daedalus/protocol";

/**
 * The available names a selection keeps, in the order they are available.
 *
 * @param selection the profile's list; absent: all
 * @param available what the user may use
 * @returns the selected names
 */
export function selectNames(
  selection: readonly string[] | undefined,
  available: readonly string[],
): string[] {
  if (selection === undefined) return [...available];
  const wanted = new Set(selection);
  return available.filter((name) => wanted.has(name));
}

/**
 * The sub-agent profiles a profile may delegate to (absent or `[]`: all of them).
 *
 * @param selection the profile's `subagents`
 * @param available every profile id
 * @returns the selected ids
 */
export function selectSubagents(
  selection: readonly string[] | undefined,
  available: readonly string[],
): string[] {
  return selectNames(selection?.length ? selection : undefined, available);
}

/** What a tool contributes to the selection: its name and, for an MCP tool, its server. */
export interface SelectableTool {
  /** The tool's id, as the model calls it. */
  readonly name: string;
  /** The MCP server it comes from (absent: a built-in tool). */
  readonly mcpServer?: string;
}

/**
 * The tools a profile's Runs may call: a built-in tool when `tools` selects it; an MCP
 * tool when `mcpServers` selects its server and `tools` selects it (absent `tools`
 * selects every tool; a `tools` list must name an MCP tool to keep it).
 *
 * @param profile the profile
 * @param tools every tool the runtime has, in the order they are offered
 * @returns the selected tool ids, in that order
 */
export function selectTools(
  profile: Pick<AgentProfile, "tools" | "mcpServers">,
  tools: readonly SelectableTool[],
): string[] {
  const servers = new Set(
    selectNames(profile.mcpServers, [
      ...new Set(tools.flatMap((tool) => tool.mcpServer === undefined ? [] : [tool.mcpServer])),
    ]),
  );
  const reachable = tools.filter((tool) =>
    tool.mcpServer === undefined || servers.has(tool.mcpServer)
  );
  return selectNames(profile.tools, reachable.map((tool) => tool.name));
}

/**
 * The intersection of two allow-lists, where absent means "no limit".
 *
 * @param a one list (absent: all)
 * @param b another (absent: all)
 * @returns the names in both, in `a`'s order; absent when both are absent
 */
export function intersectAllowed(
  a: readonly string[] | undefined,
  b: readonly string[] | undefined,
): string[] | undefined {
  if (a === undefined) return b === undefined ? undefined : [...b];
  if (b === undefined) return [...a];
  const inB = new Set(b);
  return a.filter((name) => inB.has(name));
}

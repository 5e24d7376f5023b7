/**
 * The names MCP tools are offered to the model under: `mcp__<server>__<tool>`, within the
 * providers' rule `^[a-zA-Z0-9_-]{1,64}$`. Characters outside it become `_`; a name that
 * is too long, or that two tools would share after that, gets a short hash of the original
 * server and tool names instead of its tail. The hash depends on those names only, so a
 * tool keeps its name whatever else the servers list and in whatever order.
 *
 * @module
 */

/** The longest tool name providers accept. */
export const MODEL_TOOL_NAME_MAX_CHARS = 64;

/** The prefix of every MCP tool's model-facing name. */
export const MCP_TOOL_PREFIX = "mcp__";

const OUTSIDE_RULE = /[^a-zA-Z0-9_-]/g;
const HASH_CHARS = 8;

/** One tool to name: its server's name and its own. */
export interface McpToolRef {
  /** The server's configured name. */
  readonly server: string;
  /** The tool's name as the server lists it. */
  readonly tool: string;
}

/**
 * The plain model-facing name of a tool (before collisions are looked at).
 *
 * @param ref server and tool
 * @returns `mcp__<server>__<tool>` sanitised, hashed when too long
 * @example
 * ```ts
 * mcpToolName({ server: "everything", tool: "get-sum" }); // "mcp__everything__get-sum"
 * ```
 */
export function mcpToolName(ref: McpToolRef): string {
  const plain = `${MCP_TOOL_PREFIX}${sanitise(ref.server)}__${sanitise(ref.tool)}`;
  return plain.length <= MODEL_TOOL_NAME_MAX_CHARS ? plain : hashedName(plain, ref);
}

/**
 * Names a set of tools: each its plain name, except where two would share one — then every
 * tool of that name is hashed but the one whose plain name is exactly `mcp__<server>__<tool>`
 * (when there is exactly one such).
 *
 * @param refs the tools (any order)
 * @returns the model-facing name of each, keyed by `server\0tool`
 */
export function assignToolNames(refs: readonly McpToolRef[]): Map<string, string> {
  const byName = new Map<string, McpToolRef[]>();
  for (const ref of refs) {
    const name = mcpToolName(ref);
    byName.set(name, [...(byName.get(name) ?? []), ref]);
  }
  const names = new Map<string, string>();
  for (const [name, sharing] of byName) {
    const exact = sharing.filter((ref) => `${MCP_TOOL_PREFIX}${ref.server}__${ref.tool}` === name);
    // Two exact owners (`a__b` + `c` and `a` + `b__c`) cannot both keep it: both are hashed.
    const keeper = sharing.length === 1 ? sharing[0] : exact.length === 1 ? exact[0] : undefined;
    for (const ref of sharing) {
      names.set(refKey(ref), ref === keeper ? name : hashedName(name, ref));
    }
  }
  return names;
}

/**
 * The key of a tool in {@linkcode assignToolNames}'s answer.
 *
 * @param ref server and tool
 * @returns `server\0tool`
 */
export function refKey(ref: McpToolRef): string {
  return `${ref.server}\u0000${ref.tool}`;
}

function sanitise(text: string): string {
  const clean = text.replace(OUTSIDE_RULE, "_");
  return clean === "" ? "_" : clean;
}

function hashedName(name: string, ref: McpToolRef): string {
  const suffix = `_${fnv1a(refKey(ref))}`;
  return `${name.slice(0, MODEL_TOOL_NAME_MAX_CHARS - suffix.length)}${suffix}`;
}

/** 32-bit FNV-1a of the UTF-16 text, as 8 hex digits: short, stable, no crypto needed. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(HASH_CHARS, "0");
}

/**
 * What a permission rule's pattern means for the tool (or group) it names, and whether a
 * pattern is well formed: path globs for the file tools, command prefixes for starting a
 * process, no pattern for the rest. Pure, shared by the rule schema (config.yaml, RPC, PWA)
 * and the rules engine in `@daedalus/tools`, so all of them refuse the same rules.
 *
 * @module
 */
import type { PERMISSION_TOOL_GROUPS } from "./enums.ts";
import type { ToolId } from "./types.gen.ts";
import { PERMISSION_PATTERN_MAX_CHARS } from "./limits.ts";

/** A tool group a permission rule may name: `group:` and a risk class. */
export type PermissionToolGroup = typeof PERMISSION_TOOL_GROUPS[number];

/**
 * What a rule's pattern is matched against: a path glob (`path`), a command prefix
 * (`command`), or nothing — the rule names the tool only (`none`).
 */
export type PermissionPatternKind = "path" | "command" | "none";

/**
 * The pattern kind of each built-in tool: what its calls touch. The file tools touch a
 * path, `process_start` a command line; the other process tools act on a process that
 * was already allowed to start, and session and memory tools on the runtime's own data.
 */
export const TOOL_PATTERN_KINDS: Readonly<Record<ToolId, PermissionPatternKind>> = {
  read: "path",
  write: "path",
  edit: "path",
  glob: "path",
  grep: "path",
  list: "path",
  history_read: "none",
  memory: "none",
  process_start: "command",
  process_read: "none",
  process_wait: "none",
  process_stop: "none",
  process_write: "none",
  process_resize: "none",
  thread_create: "none",
  thread_rename: "none",
  thread_archive: "none",
  thread_send: "none",
  thread_list: "none",
  thread_read: "none",
  subagent: "none",
  ask_user: "none",
  plan: "none",
};

/**
 * The pattern kind of each tool group: reads and writes by path (a path pattern on the
 * `group:read` group matches only the reads that touch a path), processes by command, session
 * and memory changes by tool only.
 */
export const GROUP_PATTERN_KINDS: Readonly<Record<PermissionToolGroup, PermissionPatternKind>> = {
  "group:read": "path",
  "group:write": "path",
  "group:process": "command",
  "group:session": "none",
  "group:memory": "none",
};

/**
 * The kind of pattern a rule naming `tool` takes. `*` takes none: a path glob and a
 * command prefix are different languages, so a pattern must say which tools it is for.
 *
 * @param tool a tool id, a group or `*`
 * @returns the kind, or null for a name that is neither
 * @example
 * ```ts
 * permissionPatternKind("group:process"); // "command"
 * permissionPatternKind("memory"); // "none"
 * ```
 */
export function permissionPatternKind(tool: string): PermissionPatternKind | null {
  if (tool === "*" || mcpRuleTarget(tool) !== null) return "none";
  if (Object.hasOwn(TOOL_PATTERN_KINDS, tool)) {
    return TOOL_PATTERN_KINDS[tool as ToolId];
  }
  if (Object.hasOwn(GROUP_PATTERN_KINDS, tool)) {
    return GROUP_PATTERN_KINDS[tool as PermissionToolGroup];
  }
  return null;
}

/**
 * How a rule names MCP tools: `mcp:<server>` (every tool of a configured server) or
 * `mcp:<server>/<tool>` (one tool, by the name its server lists it under; the name offered
 * to the model may be shortened, this one is not).
 */
const MCP_RULE_TOOL = /^mcp:([a-z0-9][a-z0-9_-]{0,31})(?:\/([A-Za-z0-9_.-]{1,128}))?$/;

/**
 * The MCP server (and tool) a rule's `tool` names, or null when it names no MCP tool.
 *
 * @param tool a rule's `tool`
 * @returns the server and the tool (null: all of the server's tools)
 * @example
 * ```ts
 * mcpRuleTarget("mcp:github/create_issue"); // { server: "github", tool: "create_issue" }
 * mcpRuleTarget("mcp:github"); // { server: "github", tool: null }
 * mcpRuleTarget("read"); // null
 * ```
 */
export function mcpRuleTarget(tool: string): { server: string; tool: string | null } | null {
  const match = MCP_RULE_TOOL.exec(tool);
  return match ? { server: match[1]!, tool: match[2] ?? null } : null;
}

/**
 * Shell syntax a command prefix may not contain: a prefix is plain words, matched against
 * each simple command of a command line.
 */
const SHELL_SYNTAX = /[;&|<>()`$\\"'{}]/;
// deno-lint-ignore no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/**
 * Why `pattern` is not a valid pattern for a rule naming `tool`, or null when it is.
 * Path globs: `*`, `**`, `?`, `[abc]`/`[!abc]` (ranges ascending), `{a,b}`; relative ones
 * match inside the workspace, absolute ones (`/…`) anywhere; `..` segments are refused
 * (an outside path is named by an absolute glob). Command prefixes: one or more words
 * without shell syntax.
 *
 * @param tool a tool id, a group or `*`
 * @param pattern the pattern
 * @returns the problem, worded to follow "pattern: ", or null
 * @example
 * ```ts
 * permissionPatternProblem("memory", "x"); // "memory takes no pattern; …"
 * permissionPatternProblem("read", "src/[z-a].ts"); // "bad range z-a in a [...] class"
 * permissionPatternProblem("process_start", "git status"); // null
 * ```
 */
export function permissionPatternProblem(tool: string, pattern: string): string | null {
  const kind = permissionPatternKind(tool);
  if (kind === null) return `unknown tool ${tool.slice(0, 64)}`;
  if (kind === "none") {
    return tool === "*"
      ? "* takes no pattern; name a group (group:read, group:write, group:process) or a tool"
      : `${tool} takes no pattern; a rule for it names the tool only`;
  }
  if (pattern.length === 0) return "must not be empty";
  if (pattern.length > PERMISSION_PATTERN_MAX_CHARS) {
    return `must be at most ${PERMISSION_PATTERN_MAX_CHARS} characters`;
  }
  if (CONTROL_CHARS.test(pattern)) return "must not contain control characters";
  return kind === "path" ? pathGlobProblem(pattern) : commandPrefixProblem(pattern);
}

function commandPrefixProblem(prefix: string): string | null {
  if (prefix.trim() === "") return "a command prefix must have at least one word";
  if (SHELL_SYNTAX.test(prefix)) {
    return "a command prefix is plain words: no quotes, operators, redirections or substitutions";
  }
  return null;
}

function pathGlobProblem(glob: string): string | null {
  const segments = glob.split("/");
  if (segments.includes("..")) {
    return "must not contain .. segments; name a path outside the workspace by an absolute glob";
  }
  if (glob.includes("\\")) return "must use / as the separator, without backslashes";
  let braces = 0;
  const chars = Array.from(glob);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (char === "[") {
      const close = chars.indexOf("]", i + 2);
      if (close === -1) return 'has an unclosed "["';
      const problem = classProblem(chars.slice(i + 1, close));
      if (problem !== null) return problem;
      i = close;
    } else if (char === "{") braces++;
    else if (char === "}" && braces > 0) braces--;
  }
  return braces > 0 ? 'has an unclosed "{"' : null;
}

/** A `[...]` body as the glob compiler passes it to RE2: `!` negates, ranges must ascend. */
function classProblem(body: readonly string[]): string | null {
  const items = body[0] === "!" ? body.slice(1) : body;
  if (items.length === 0) return "has an empty [...] class";
  // RE2 reads a lone "^" as a negation with nothing after it.
  if (body.length === 1 && body[0] === "^") return "has an empty [...] class";
  if (items.join("").includes("[:")) return "does not support [:class:] names in [...]";
  for (let i = 0; i < items.length; i++) {
    const from = items[i] ?? "";
    if (items[i + 1] !== "-" || i + 2 >= items.length) continue;
    const to = items[i + 2] ?? "";
    if ((from.codePointAt(0) ?? 0) > (to.codePointAt(0) ?? 0)) {
      return `bad range ${from}-${to} in a [...] class`;
    }
    i += 2;
  }
  return null;
}

/**
 * What a compact tool row says about a call before it is expanded: the kind of tool (its
 * icon), a verb in plain words and the call's target (the path relative to the workspace,
 * the command's first line, the search pattern), read from the tool id and its arguments
 * (the keys of packages/tools' schemas). Unknown tools and MCP tools
 * (`mcp__<server>__<tool>`) get a neutral verb and their name as the target. Pure.
 *
 * @module
 */

/** The families of tools, each with its own icon. */
export type ToolKind =
  | "read"
  | "change"
  | "search"
  | "process"
  | "memory"
  | "subagent"
  | "history"
  | "thread"
  | "mcp"
  | "other";

/** The verbs a row can start with; each has a done and an active wording. */
export type ToolVerb =
  | "read"
  | "wrote"
  | "edited"
  | "listed"
  | "found"
  | "searched"
  | "ran"
  | "readOutput"
  | "waited"
  | "stopped"
  | "sentInput"
  | "resized"
  | "remembered"
  | "searchedMemory"
  | "updatedMemory"
  | "forgot"
  | "readHistory"
  | "delegated"
  | "createdThread"
  | "renamedThread"
  | "archivedThread"
  | "unarchivedThread"
  | "sentToThread"
  | "listedThreads"
  | "listedWorkspace"
  | "readThread"
  | "called"
  | "used";

/** A call as its row names it. */
export interface ToolSummary {
  kind: ToolKind;
  verb: ToolVerb;
  /** The shown target, cut to {@linkcode TOOL_TARGET_MAX_CHARS} with an ellipsis; may be "". */
  target: string;
  /** The whole target (the row's tooltip); "" when there is none. */
  fullTarget: string;
  /** Whether the target is code (a path, command or pattern) rather than words. */
  code: boolean;
}

/** Characters of a target shown on the row; the whole text is its tooltip. */
export const TOOL_TARGET_MAX_CHARS = 120;

type Args = Readonly<Record<string, unknown>>;

/** A known tool: its kind and verb, and how its target is read from the arguments. */
interface ToolShape {
  kind: ToolKind;
  verb: ToolVerb | ((args: Args, root: string | null) => ToolVerb);
  target: (args: Args, root: string | null) => string;
  code: boolean;
}

const path = (key: string) => (args: Args, root: string | null) =>
  workspacePath(text(args, key), root);
const field = (key: string) => (args: Args) => firstLine(text(args, key));
const none = () => "";
/** A listed folder as shown: "" for the workspace itself. */
const listedPath = (args: Args, root: string | null) => {
  const where = workspacePath(text(args, "path"), root);
  return where === "." ? "" : where;
};

const MEMORY_VERBS: Readonly<Record<string, ToolVerb>> = {
  save: "remembered",
  search: "searchedMemory",
  update: "updatedMemory",
  forget: "forgot",
};

const SHAPES: Readonly<Record<string, ToolShape>> = {
  read: { kind: "read", verb: "read", target: path("path"), code: true },
  write: { kind: "change", verb: "wrote", target: path("path"), code: true },
  edit: { kind: "change", verb: "edited", target: path("path"), code: true },
  // The workspace itself reads "Listed the workspace", not "Listed .".
  list: {
    kind: "read",
    verb: (args, root) => listedPath(args, root) === "" ? "listedWorkspace" : "listed",
    target: listedPath,
    code: true,
  },
  glob: { kind: "search", verb: "found", target: searchTarget, code: true },
  grep: { kind: "search", verb: "searched", target: searchTarget, code: true },
  process_start: { kind: "process", verb: "ran", target: field("command"), code: true },
  process_read: { kind: "process", verb: "readOutput", target: field("processId"), code: true },
  process_wait: { kind: "process", verb: "waited", target: field("processId"), code: true },
  process_stop: { kind: "process", verb: "stopped", target: field("processId"), code: true },
  process_write: { kind: "process", verb: "sentInput", target: field("processId"), code: true },
  process_resize: { kind: "process", verb: "resized", target: field("processId"), code: true },
  memory: {
    kind: "memory",
    verb: (args) => MEMORY_VERBS[text(args, "action")] ?? "used",
    target: (args) => firstLine(text(args, "query") || text(args, "content")),
    code: false,
  },
  history_read: { kind: "history", verb: "readHistory", target: none, code: false },
  subagent: {
    kind: "subagent",
    verb: "delegated",
    target: (args) => firstLine(text(args, "title") || text(args, "task")),
    code: false,
  },
  thread_create: { kind: "thread", verb: "createdThread", target: field("title"), code: false },
  thread_rename: { kind: "thread", verb: "renamedThread", target: field("title"), code: false },
  thread_archive: {
    kind: "thread",
    verb: (args) => args.archived === false ? "unarchivedThread" : "archivedThread",
    target: field("threadId"),
    code: true,
  },
  thread_send: { kind: "thread", verb: "sentToThread", target: field("content"), code: false },
  thread_list: { kind: "thread", verb: "listedThreads", target: none, code: false },
  thread_read: { kind: "thread", verb: "readThread", target: field("threadId"), code: true },
};

/** `mcp__<server>__<tool>`: the name MCP tools are offered to the model under. */
const MCP_NAME = /^mcp__(.+?)__(.+)$/;

/**
 * The row's words for a call.
 *
 * @param toolId the tool's id (`data.toolId`)
 * @param args the call's parsed arguments (`data.arguments`; anything, even a string)
 * @param workspaceRoot the thread's workspace folder, to show paths relative to it (null
 *   when unknown)
 * @returns its kind, verb and target
 */
export function summarizeToolCall(
  toolId: string,
  args: unknown,
  workspaceRoot: string | null,
): ToolSummary {
  const fields: Args = args !== null && typeof args === "object" && !Array.isArray(args)
    ? args as Args
    : {};
  const shape = Object.hasOwn(SHAPES, toolId) ? SHAPES[toolId]! : null;
  if (shape) {
    const verb = typeof shape.verb === "function" ? shape.verb(fields, workspaceRoot) : shape.verb;
    return withTarget(shape.kind, verb, shape.target(fields, workspaceRoot), shape.code);
  }
  const mcp = MCP_NAME.exec(toolId);
  if (mcp) return withTarget("mcp", "called", `${mcp[1]} · ${mcp[2]}`, true);
  return withTarget("other", "used", toolId, true);
}

function withTarget(kind: ToolKind, verb: ToolVerb, full: string, code: boolean): ToolSummary {
  return { kind, verb, target: truncateTarget(full), fullTarget: full, code };
}

/**
 * A target cut to {@linkcode TOOL_TARGET_MAX_CHARS} characters, with an ellipsis when cut.
 *
 * @param full the whole target
 * @returns the shown text
 */
export function truncateTarget(full: string): string {
  const chars = Array.from(full);
  if (chars.length <= TOOL_TARGET_MAX_CHARS) return full;
  return `${chars.slice(0, TOOL_TARGET_MAX_CHARS - 1).join("").trimEnd()}…`;
}

/**
 * A path as the user knows it: relative to the workspace when inside it (either slash),
 * else as given.
 *
 * @param value the path the tool was given
 * @param root the workspace folder, or null
 * @returns the path to show ("" for none)
 */
export function workspacePath(value: string, root: string | null): string {
  if (value === "" || !root) return value;
  const base = root.replace(/[\\/]+$/, "");
  if (value === base) return ".";
  for (const separator of ["/", "\\"]) {
    if (value.startsWith(base + separator)) return value.slice(base.length + 1);
  }
  return value;
}

function searchTarget(args: Args, root: string | null): string {
  const pattern = firstLine(text(args, "pattern"));
  const where = workspacePath(text(args, "path"), root);
  return where && where !== "." ? `${pattern} · ${where}` : pattern;
}

function text(args: Args, key: string): string {
  const value = args[key];
  return typeof value === "string" ? value : "";
}

/** The first non-empty line, trimmed; a later line is marked by an ellipsis. */
function firstLine(value: string): string {
  const lines = value.trim().split("\n");
  const first = lines[0]!.trim();
  return lines.length > 1 ? `${first} …` : first;
}

/**
 * The tool contract: what a tool is (id, model-facing description, zod params,
 * whether it mutates, its risk class, and `run`), and the only capability it gets,
 * the {@linkcode ToolContext}. Tools never reach into storage or the scheduler: they
 * record facts (file changes, processes) through the context and the runtime commits
 * them with the tool result.
 *
 * @module
 */
import type { RunGate } from "./gate.ts";
import type {
  ApprovalReasonCode,
  EventPayload,
  ExecutionPolicy,
  PermissionDecision,
  PermissionRule,
  ProcessRecord,
  ToolId,
  UserQuestion,
} from "@daedalus/protocol";
import type { SessionOperations } from "./sessions/session_operations.ts";
import type { ProcessOperations } from "./processes/process_operations.ts";
import type { MemoryOperations } from "./memory/memory_operations.ts";
import type { MemoryFileAccess } from "./memory/memory_file.ts";

/**
 * How dangerous a tool is; the wrapper refuses by it (see `permission.ts`): `read_only`
 * refuses `write`, the narrowed modes refuse `process` and `session`, and `read` and
 * `memory` (the user's long-term memory, not the workspace) run in every mode.
 */
export type ToolRisk = "read" | "write" | "process" | "session" | "memory";

/** One problem a parameter schema found. */
export interface ToolParamsIssue {
  /** Where, as a path of keys into the arguments (empty: the arguments as a whole). */
  readonly path: readonly PropertyKey[];
  /** What is wrong. */
  readonly message: string;
}

/** A parameter schema's verdict. */
export type ToolParamsResult<P> =
  | { readonly success: true; readonly data: P }
  | { readonly success: false; readonly error: { readonly issues: readonly ToolParamsIssue[] } };

/** Options of {@linkcode ToolParams.toJSONSchema} (zod's). */
export interface ToolParamsJsonSchemaOptions {
  /** Which side to describe: `input` (what a caller may send) or `output`. */
  io?: "input" | "output";
  /** Called on every generated node, to trim it. */
  override?: (context: { jsonSchema: Record<string, unknown> }) => void;
}

/**
 * A tool's parameter schema: a zod schema, seen through the two methods the wrapper and
 * the runtime use (so the public types of this package do not reach into zod's).
 */
export interface ToolParams<P> {
  /**
   * Validates arguments without throwing.
   *
   * @param data the arguments
   * @returns the parsed parameters, or every problem found
   */
  safeParse(data: unknown): ToolParamsResult<P>;
  /**
   * The JSON Schema of the parameters, as the model is shown them.
   *
   * @param options which side, and a node trimmer
   * @returns the JSON Schema
   */
  toJSONSchema(options?: ToolParamsJsonSchemaOptions): Record<string, unknown>;
}

/**
 * A file change captured by write/edit, committed with the tool result: the
 * `file.change_recorded` payload (the protocol owns the shape; before/after captures and
 * the diff ride in its loose part).
 */
export type FileChangeFact = EventPayload<"file.change_recorded">;

/** Facts a tool call produced, committed in the transaction that settles it. */
export interface ToolFacts {
  /** File changes, in order. */
  fileChanges: FileChangeFact[];
  /** Process records (latest state of each process the call touched). */
  processes: ProcessRecord[];
}

/** The one capability a tool gets. Ownership ids come from the runtime, never the model. */
export interface ToolContext {
  /** The thread the call belongs to. */
  readonly threadId: string;
  /** The run. */
  readonly runId: string;
  /** The tool_call item. */
  readonly itemId: string;
  /** The thread's workspace folder (absolute); relative paths resolve against it. */
  readonly workspaceRoot: string;
  /** `<home>/artifacts`, where results over 64 KiB are written. */
  readonly artifactsRoot: string;
  /** The Run's frozen permission mode. */
  readonly executionPolicy: ExecutionPolicy;
  /** Cancellation of the Run (and of this call). */
  readonly signal: AbortSignal;
  /**
   * The runtime's own secret files (`<home>/config.yaml`, `auth.json`, `sessions.json`):
   * no file tool reads or writes them in any mode, through any alias.
   */
  readonly protectedFiles: readonly string[];
  /** Configured credentials: tool output carrying one is refused. */
  readonly protectedValues: { find(text: string): boolean; redact(text: string): string };
  /** Where the call's facts go. */
  readonly facts: ToolFacts;
  /** Thread, history and sub-agent operations (absent where sessions cannot be reached). */
  readonly sessions?: SessionOperations;
  /** The process manager's operations, scoped to the thread (absent: no commands). */
  readonly processes?: ProcessOperations;
  /** Long-term memory operations (absent: no memory). */
  readonly memory?: MemoryOperations;
  /**
   * Where the user's MEMORY.md may be, for the `memory` tool's `file_*` actions. Absent:
   * the Run's agent profile does not use MEMORY.md (`memory.memoryFile` off), and they
   * are refused.
   */
  readonly memoryFile?: MemoryFileAccess;
  /**
   * What the tools may keep for the rest of the Run (absent: nothing is kept, each call
   * works it out again). The file tools keep their access rules here: the real paths of
   * the workspace, the artifacts folder and the protected files are resolved once per Run,
   * not per call.
   */
  readonly runMemo?: RunMemo;
  /**
   * The Run's policy gate (rules, high-risk check, loop detector, breakers), built once per
   * Run. Absent: only the preset of {@linkcode ToolContext.executionPolicy} is checked.
   */
  readonly gate?: RunGate;
  /**
   * Tells the user how far a long call got (an MCP tool's progress notifications); the
   * runtime journals it on the call's item, throttled. Absent: progress is not reported.
   */
  readonly reportProgress?: (update: ToolProgress) => void;
  /**
   * The user allowed this very call after the gate asked, for this reason: the stage that
   * asked lets it through (a high-risk approval also answers a rule's `ask` of the same
   * call). Set by the runtime when it resumes a Run from an answered approval.
   */
  readonly approved?: ApprovalReasonCode;
}

/** How far a running call got. */
export interface ToolProgress {
  /** Done so far (any unit, increasing). */
  readonly progress: number;
  /** The whole, when known. */
  readonly total?: number;
  /** What it is doing now. */
  readonly message?: string;
}

/** A per-Run store of values the tools work out once (see {@linkcode ToolContext.runMemo}). */
export interface RunMemo {
  /**
   * The value kept under `key`, made by `make` the first time it is asked for.
   *
   * @param key what the value is (one key, one kind of value)
   * @param make makes the value
   * @returns the kept value
   */
  memo<T>(key: string, make: () => T): T;
}

/**
 * A new, empty {@linkcode RunMemo}: the runtime makes one per Run.
 *
 * @returns the memo
 */
export function createRunMemo(): RunMemo {
  const values = new Map<string, unknown>();
  return {
    memo<T>(key: string, make: () => T): T {
      if (values.has(key)) return values.get(key) as T;
      const value = make();
      values.set(key, value);
      return value;
    },
  };
}

/**
 * The part of a {@linkcode ToolContext} that is the same for every call of a Run: built
 * once when the Run starts; each call adds its item, signal and fact recorders.
 */
export type RunToolContext = Omit<
  ToolContext,
  "itemId" | "signal" | "facts" | "approved" | "reportProgress"
>;

/** What a tool returns to the model (and, in `details`, to clients). */
export interface ToolResult {
  /** Text for the model. */
  content: string;
  /** Whether the call failed; the model sees the error text. */
  isError?: boolean;
  /** A stable error code when it failed (e.g. `permission_denied`, `file_not_found`). */
  errorCode?: string;
  /** Structured details for clients (line ranges, byte counts, artifact path…). */
  details?: Record<string, unknown>;
  /**
   * Set when the call did not run because the gate asks the user (only with a Run gate
   * built with `askUser`), or when the call is a question for the user (`ask_user`): the
   * runtime turns it into an approval and the Run waits. The rest of the result is what a
   * caller that cannot ask would give the model.
   */
  awaitsApproval?: ApprovalAsk;
}

/** What the gate asks the user about a call. */
export interface ApprovalAsk {
  /** Why it asks. */
  readonly reasonCode: ApprovalReasonCode;
  /** One line for the person who answers. */
  readonly summary: string;
  /** The path or command line the call acts on, when it has one. */
  readonly target: string | null;
  /** The rule an allow_thread / allow_always answer adds, or null (only allow once, deny). */
  readonly rule: PermissionRule | null;
  /** The question asked (`user_question` only: the `ask_user` tool). */
  readonly question?: UserQuestion;
}

/** A tool. */
export interface ToolDefinition<P = unknown> {
  /**
   * The id the model calls it by: a {@linkcode ToolId} for the built-in tools; tests and
   * library users may register tools of their own names.
   */
  readonly id: ToolId | (string & Record<never, never>);
  /** What it does, for the model (kept in a `<id>.md` file beside the tool). */
  readonly description: string;
  /** Its parameters; validated before `run`, errors go back to the model. */
  readonly params: ToolParams<P>;
  /** Whether it changes anything: mutating calls run exclusively within a Run. */
  readonly mutating: boolean;
  /** Its risk class. */
  readonly risk: ToolRisk;
  /**
   * The decision its owner configured for it (an MCP server's `permission`), in place of the
   * Run's preset: permission rules from config.yaml and the thread still win over it, and a
   * sealed mode still refuses what its risk class may not do. Absent: the preset decides.
   * Built-in tools have none.
   */
  readonly defaultDecision?: PermissionDecision;
  /**
   * The MCP server and the server's own name of the tool, for an MCP tool: what permission
   * rules naming `mcp:<server>` or `mcp:<server>/<tool>` match. Absent for every other tool.
   */
  readonly mcp?: { readonly server: string; readonly tool: string };
  /**
   * Runs the tool.
   *
   * @param params validated parameters
   * @param context ids, workspace, cancellation, fact recorders
   * @returns the result
   */
  run(params: P, context: ToolContext): Promise<ToolResult>;
}

/**
 * Declares a tool (a function only so each definition keeps its precise types).
 *
 * @param definition the tool
 * @returns the same definition
 */
export function defineTool<P>(definition: ToolDefinition<P>): ToolDefinition<P> {
  return definition;
}

/** A stable, model-facing tool failure. Thrown from `run`, turned into a result by the wrapper. */
export class ToolError extends Error {
  /** Stable code. */
  readonly code: string;

  /**
   * Makes the failure.
   *
   * @param code stable code (`file_not_found`, `stale_content`, `permission_denied`…)
   * @param message what the model should read
   * @param options the original error
   */
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ToolError";
    this.code = code;
  }
}

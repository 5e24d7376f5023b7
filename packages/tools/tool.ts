/**
 * The tool contract: what a tool is (id, model-facing description, zod params,
 * whether it mutates, its risk class, and `run`), and the only capability it gets,
 * the {@linkcode ToolContext}. Tools never reach into storage or the scheduler: they
 * record facts (file changes, processes) through the context and the runtime commits
 * them with the tool result.
 *
 * @module
 */
import type { z } from "zod";
import type { EventPayload, ExecutionPolicy, ProcessRecord, ToolId } from "@daedalus/protocol";

/** How dangerous a tool is; the permission sandbox decides by it. */
export type ToolRisk = "read" | "write" | "process" | "session";

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
}

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
}

/** A tool. */
export interface ToolDefinition<P = unknown> {
  /** The id the model calls it by. */
  readonly id: ToolId;
  /** What it does, for the model (kept in a `<id>.md` file beside the tool). */
  readonly description: string;
  /** Its parameters; validated before `run`, errors go back to the model. */
  readonly params: z.ZodType<P>;
  /** Whether it changes anything: mutating calls run exclusively within a Run. */
  readonly mutating: boolean;
  /** Its risk class. */
  readonly risk: ToolRisk;
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

/**
 * The tools a Run may call, as the loop sees them. The built-in tools plug in here
 * with their own issue; until then tests and library users register their own.
 *
 * @module
 */
import type { ProviderTool } from "../providers/provider.ts";

/** What a tool gets besides its arguments. */
export interface LoopToolContext {
  /** The thread. */
  threadId: string;
  /** The run. */
  runId: string;
  /** The tool_call item. */
  itemId: string;
  /** Cancellation of the run. */
  signal: AbortSignal;
}

/** Facts a tool call produced, committed with its result. */
export interface LoopToolFacts {
  /** File changes (`file.change_recorded`). */
  fileChanges?: import("@daedalus/storage").FileChangeFact[];
  /** Process records (`process.recorded`). */
  processes?: import("@daedalus/protocol").ProcessRecord[];
}

/** What a tool returns. */
export interface LoopToolResult {
  /** Facts to commit in the same transaction as the result. */
  facts?: LoopToolFacts;
  /** Text for the model. */
  content: string;
  /** Whether the call failed (the model sees the error). */
  isError?: boolean;
  /** Details for clients. */
  details?: Record<string, unknown>;
  /**
   * Set when the tool could not run at all in a way the Run cannot recover from (its
   * permission sandbox is unusable): the call settles failed and then the Run fails with
   * this reason instead of going on.
   */
  runFailure?: import("@daedalus/protocol").RunReasonCode;
}

/** A tool the loop can run. */
export interface LoopTool extends ProviderTool {
  /** Whether it changes anything (mutating tools run exclusively). */
  mutating: boolean;
  /**
   * Runs the tool.
   *
   * @param args parsed JSON arguments
   * @param context ids and cancellation
   * @returns the result
   */
  run(args: unknown, context: LoopToolContext): Promise<LoopToolResult>;
}

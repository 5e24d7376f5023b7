/**
 * The `process_wait` tool: waits a bounded time for a command to finish, then shows its
 * output's first page.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { outputPage, processesOf, ProcessRef } from "./_process_tools.ts";
import description from "./process_wait.md" with { type: "text" };

/** Parameters of {@linkcode processWaitTool}. */
export interface ProcessWaitParams {
  /** The process. */
  processId: string;
  /** How long to wait (default 30 s, at most 10 min). */
  timeoutMs?: number;
}

/** The schema of {@linkcode ProcessWaitParams}. */
export const ProcessWaitParams: ToolParams<ProcessWaitParams> = z.strictObject({
  processId: ProcessRef,
  timeoutMs: z.int().min(0).max(600_000).optional(),
});

/** Waits for a command. */
export const processWaitTool: ToolDefinition<ProcessWaitParams> = defineTool({
  id: "process_wait",
  description: description.trimEnd(),
  params: ProcessWaitParams,
  mutating: false,
  risk: "process",
  run: async (params, context) => {
    const processes = processesOf(context);
    const waited = await processes.wait(
      params.processId,
      params.timeoutMs ?? 30_000,
      context.signal,
    );
    const result = await outputPage(processes, params.processId);
    return { ...result, content: (waited.timedOut ? "(still running) " : "") + result.content };
  },
});

/**
 * The `process_read` tool: a command's output from a byte cursor, a page at a time.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { outputPage, processesOf, ProcessRef } from "./_process_tools.ts";
import description from "./process_read.md" with { type: "text" };

/** Parameters of {@linkcode processReadTool}. */
export interface ProcessReadParams {
  /** The process. */
  processId: string;
  /** Byte offset (default 0). */
  cursor?: number;
}

/** The schema of {@linkcode ProcessReadParams}. */
export const ProcessReadParams: ToolParams<ProcessReadParams> = z.strictObject({
  processId: ProcessRef,
  cursor: z.int().min(0).optional(),
});

/** Reads a command's output. */
export const processReadTool: ToolDefinition<ProcessReadParams> = defineTool({
  id: "process_read",
  description: description.trimEnd(),
  params: ProcessReadParams,
  mutating: false,
  risk: "process",
  run: (params, context) => outputPage(processesOf(context), params.processId, params.cursor),
});

/**
 * The `process_resize` tool: a pty command's terminal size.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { processesOf, ProcessRef } from "./_process_tools.ts";
import description from "./process_resize.md" with { type: "text" };

/** Parameters of {@linkcode processResizeTool}. */
export interface ProcessResizeParams {
  /** The process. */
  processId: string;
  /** Columns (1–1000). */
  cols: number;
  /** Rows (1–1000). */
  rows: number;
}

/** The schema of {@linkcode ProcessResizeParams}. */
export const ProcessResizeParams: ToolParams<ProcessResizeParams> = z.strictObject({
  processId: ProcessRef,
  cols: z.int().min(1).max(1000),
  rows: z.int().min(1).max(1000),
});

/** Resizes a pty command's terminal. */
export const processResizeTool: ToolDefinition<ProcessResizeParams> = defineTool({
  id: "process_resize",
  description: description.trimEnd(),
  params: ProcessResizeParams,
  mutating: true,
  risk: "process",
  run: async (params, context) => {
    await processesOf(context).resize(params.processId, params.cols, params.rows);
    return { content: `Resized ${params.processId} to ${params.cols}×${params.rows}` };
  },
});

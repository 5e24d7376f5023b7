/**
 * The `process_write` tool: text to a command's stdin.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { processesOf, ProcessRef } from "./_process_tools.ts";
import description from "./process_write.md" with { type: "text" };

/** Parameters of {@linkcode processWriteTool}. */
export interface ProcessWriteParams {
  /** The process. */
  processId: string;
  /** The text (at most 64 Ki characters). */
  data: string;
}

/** The schema of {@linkcode ProcessWriteParams}. */
export const ProcessWriteParams: ToolParams<ProcessWriteParams> = z.strictObject({
  processId: ProcessRef,
  data: z.string().max(65_536),
});

/** Writes to a command's stdin. */
export const processWriteTool: ToolDefinition<ProcessWriteParams> = defineTool({
  id: "process_write",
  description: description.trimEnd(),
  params: ProcessWriteParams,
  mutating: true,
  risk: "process",
  run: async (params, context) => {
    await processesOf(context).write(params.processId, params.data);
    return { content: `Wrote ${params.data.length} characters to ${params.processId}` };
  },
});

/**
 * The `process_stop` tool: stops a command and its process tree.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { processesOf, ProcessRef } from "./_process_tools.ts";
import description from "./process_stop.md" with { type: "text" };

/** Parameters of {@linkcode processStopTool}. */
export interface ProcessStopParams {
  /** The process. */
  processId: string;
}

/** The schema of {@linkcode ProcessStopParams}. */
export const ProcessStopParams: ToolParams<ProcessStopParams> = z.strictObject({
  processId: ProcessRef,
});

/** Stops a command. */
export const processStopTool: ToolDefinition<ProcessStopParams> = defineTool({
  id: "process_stop",
  description: description.trimEnd(),
  params: ProcessStopParams,
  mutating: true,
  risk: "process",
  run: async (params, context) => {
    const record = await processesOf(context).stop(params.processId);
    return { content: `Stopped ${record.processId}`, details: { state: record.state } };
  },
});

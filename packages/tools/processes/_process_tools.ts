import { z } from "zod";
import { type ToolContext, ToolError, type ToolResult } from "../tool.ts";
import type { ProcessOperations } from "./process_operations.ts";

/** A process id as the model passes it. */
export const ProcessRef = z.string().regex(/^process_[0-9a-f]{32}$/);

/** The context's process operations; a context without them runs no command. */
export function processesOf(context: ToolContext): ProcessOperations {
  if (context.processes) return context.processes;
  throw new ToolError("tool_unavailable", "Process operations are not available here");
}

/** A page of a command's output as the model reads it. */
export async function outputPage(
  processes: ProcessOperations,
  processId: string,
  cursor = 0,
): Promise<ToolResult & { details: Record<string, unknown> }> {
  const read = await processes.read(processId, cursor);
  return {
    content: `[${read.state}${read.exitCode === null ? "" : ` exit ${read.exitCode}`}] ` +
      (read.output || "(no output)") +
      (read.hasMore ? `\n(more output: cursor=${read.nextCursor})` : ""),
    details: { ...read },
  };
}

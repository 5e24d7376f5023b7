/**
 * The `history_read` tool: items of this conversation that fell out of the model's
 * context, around an item or the newest.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { ItemRef, readSlice, sessionsOf } from "./_sessions.ts";
import description from "./history_read.md" with { type: "text" };

/** Parameters of {@linkcode historyReadTool}. */
export interface HistoryReadParams {
  /** The item to centre on (absent: the newest). */
  itemId?: string;
}

/** The schema of {@linkcode HistoryReadParams}. */
export const HistoryReadParams: ToolParams<HistoryReadParams> = z.strictObject({
  itemId: ItemRef.optional(),
});

/** Reads this thread's history. */
export const historyReadTool: ToolDefinition<HistoryReadParams> = defineTool({
  id: "history_read",
  // deno fmt ends the file with a newline; the model is shown the text without it.
  description: description.trimEnd(),
  params: HistoryReadParams,
  mutating: false,
  risk: "read",
  run: (params, context) =>
    Promise.resolve(readSlice(sessionsOf(context), context.threadId, params.itemId)),
});

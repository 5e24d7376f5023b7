/**
 * Canonical tool call events: a call starts (its name and arguments, possibly streamed in
 * chunks under the same id) and ends with its result.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";

const ToolCallRef = z.string().min(1).max(200);

export const CanonicalToolCallStart = z.looseObject({
  type: z.literal("tool_call_start"),
  toolCallId: ToolCallRef,
  name: z.string().min(1).max(200),
  /** A chunk of the arguments' JSON text; the chunks of one id concatenate to it. */
  argsDelta: z.string(),
}).register(docs, {
  description: "Canonical event: a tool call starts, or more of its arguments arrive " +
    "(Dify `agent_thought` upserted by id, AG-UI `TOOL_CALL_START`/`TOOL_CALL_ARGS`).",
});

export const CanonicalToolCallEnd = z.looseObject({
  type: z.literal("tool_call_end"),
  toolCallId: ToolCallRef,
  /** The result as the model reads it. */
  result: z.string(),
  /** Whether the call failed (the result then says why). */
  isError: z.boolean(),
}).register(docs, {
  description: "Canonical event: a tool call ended with its result (Dify `agent_thought` " +
    "observation, AG-UI `TOOL_CALL_END` and `TOOL_CALL_RESULT`).",
});

/**
 * Canonical meta events: usage, errors, the custom extension channel and the end marker.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { TokenUsage } from "../domain/usage.ts";

export const CanonicalUsage = z.looseObject({
  type: z.literal("usage"),
  usage: TokenUsage,
}).register(docs, {
  description: "Canonical event: tokens of one model call (summed into Dify's " +
    "`message_end.metadata.usage`).",
});

export const CanonicalError = z.looseObject({
  type: z.literal("error"),
  /** A stable code: a Daedalus reason code, or the agent's own. */
  code: z.string().min(1).max(100),
  message: z.string(),
  /** Whether the agent goes on after it (false: the stream ends with `done`). */
  recoverable: z.boolean(),
}).register(docs, {
  description: "Canonical event: something failed (Dify `error`, AG-UI `RUN_ERROR` when not " +
    "recoverable).",
});

export const CanonicalCustom = z.looseObject({
  type: z.literal("custom"),
  name: z.string().min(1).max(200),
  payload: z.unknown(),
}).register(docs, {
  description: "Canonical event: an event of the agent's own (AG-UI `CUSTOM`).",
});

export const CanonicalDone = z.looseObject({
  type: z.literal("done"),
  status: z.enum(["completed", "failed", "cancelled"]),
  /** The tokens of all the run's model calls that reported usage; null when none did. */
  usage: TokenUsage.nullable(),
}).register(docs, {
  description: "Canonical event: the stream's end, always last (Dify `message_end`, AG-UI " +
    "`RUN_FINISHED`).",
});

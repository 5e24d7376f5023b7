/**
 * The canonical interrupt: the agent pauses for a person (a Daedalus approval).
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";

export const CanonicalInterrupt = z.looseObject({
  type: z.literal("interrupt"),
  /** What the answer refers to (a Daedalus approval id). */
  interruptId: z.string().min(1).max(200),
  /** The node that waits (the waiting tool call's id), or null. */
  nodeName: z.string().max(200).nullable(),
  /** One line a person reads before answering. */
  message: z.string().min(1),
  /** What the answer needs to know (tool, target, the decisions offered). */
  data: z.record(z.string(), z.unknown()),
}).register(docs, {
  description: "Canonical event: the agent waits for a person's answer (Dify " +
    "`workflow_paused`, AG-UI interrupt).",
});

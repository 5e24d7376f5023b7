/**
 * The canonical event: the one stable contract between what produces an agent's events
 * (a Daedalus Run's journal, a library user's generator) and the wires that serialize them.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { CanonicalFileOutput, CanonicalReasoningDelta, CanonicalTextDelta } from "./content.ts";
import { CanonicalToolCallEnd, CanonicalToolCallStart } from "./tool_call.ts";
import { CanonicalNodeLifecycle, CanonicalSubAgentEnd, CanonicalSubAgentStart } from "./agent.ts";
import { CanonicalInterrupt } from "./interrupt.ts";
import { CanonicalCustom, CanonicalDone, CanonicalError, CanonicalUsage } from "./meta.ts";

export {
  CanonicalCustom,
  CanonicalDone,
  CanonicalError,
  CanonicalFileOutput,
  CanonicalInterrupt,
  CanonicalNodeLifecycle,
  CanonicalReasoningDelta,
  CanonicalSubAgentEnd,
  CanonicalSubAgentStart,
  CanonicalTextDelta,
  CanonicalToolCallEnd,
  CanonicalToolCallStart,
  CanonicalUsage,
};

/** Each canonical event type's schema (13 of them, seed 002 §3.1). */
export const CANONICAL_EVENT_SCHEMAS = {
  text_delta: CanonicalTextDelta,
  reasoning_delta: CanonicalReasoningDelta,
  file_output: CanonicalFileOutput,
  tool_call_start: CanonicalToolCallStart,
  tool_call_end: CanonicalToolCallEnd,
  subagent_start: CanonicalSubAgentStart,
  subagent_end: CanonicalSubAgentEnd,
  node_lifecycle: CanonicalNodeLifecycle,
  interrupt: CanonicalInterrupt,
  usage: CanonicalUsage,
  error: CanonicalError,
  custom: CanonicalCustom,
  done: CanonicalDone,
} as const;

export const CanonicalEvent = z.discriminatedUnion("type", [
  CanonicalTextDelta,
  CanonicalReasoningDelta,
  CanonicalFileOutput,
  CanonicalToolCallStart,
  CanonicalToolCallEnd,
  CanonicalSubAgentStart,
  CanonicalSubAgentEnd,
  CanonicalNodeLifecycle,
  CanonicalInterrupt,
  CanonicalUsage,
  CanonicalError,
  CanonicalCustom,
  CanonicalDone,
]).register(docs, {
  description: "One canonical event, by its `type`: what the gateway's Dify and AG-UI wires " +
    "serialize, whether a Daedalus Run or a library user's agent produced it.",
});

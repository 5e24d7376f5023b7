/**
 * Canonical events of the agent's structure: sub-agents it delegates to and the nodes
 * (model calls, tool steps) it runs through.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";

const AgentRunRef = z.string().min(1).max(200);
const AgentName = z.string().min(1).max(200);

export const CanonicalSubAgentStart = z.looseObject({
  type: z.literal("subagent_start"),
  runId: AgentRunRef,
  agentName: AgentName,
  taskDescription: z.string(),
}).register(docs, {
  description: "Canonical event: a sub-agent starts a delegated task (AG-UI `SUBAGENT_*`).",
});

export const CanonicalSubAgentEnd = z.looseObject({
  type: z.literal("subagent_end"),
  runId: AgentRunRef,
  agentName: AgentName,
  status: z.enum(["completed", "failed", "cancelled"]),
}).register(docs, {
  description: "Canonical event: a sub-agent's task ended.",
});

export const CanonicalNodeLifecycle = z.looseObject({
  type: z.literal("node_lifecycle"),
  nodeId: z.string().min(1).max(200),
  /** What the node does: `model` for a model call, else the agent's own word. */
  nodeType: z.string().min(1).max(100),
  title: z.string().max(200),
  phase: z.enum(["start", "end"]),
  metadata: z.record(z.string(), z.unknown()),
}).register(docs, {
  description: "Canonical event: a node of the agent's execution starts or ends " +
    "(AG-UI `STEP_STARTED`/`STEP_FINISHED`).",
});

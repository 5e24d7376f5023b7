/**
 * `turn.*`, `run.*` and `event.replay`.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { RunBudget } from "../domain/budget.ts";
import { BranchId, Cursor, Identifier, ItemId, RunId, ThreadId, TurnId } from "../ids.ts";
import { ClientTool } from "../domain/run_config.ts";
import { ExecutionPolicy, ReasoningEffort, RunStatus } from "../enums.ts";
import {
  CLIENT_TOOLS_MAX_COUNT,
  MESSAGE_CONTENT_MAX_CHARS,
  PAGE_MAX_LIMIT,
  REPLAY_MAX_LIMIT,
  RUN_TOOLS_MAX_COUNT,
} from "../../limits.ts";
import { AttachmentInputs, Turn } from "../domain/item.ts";
import { EventEnvelope } from "../events.ts";

const MessageContent = z.string().min(1).max(MESSAGE_CONTENT_MAX_CHARS);

/** Methods of the `turn`, `run` and `event` namespaces. */
export const turnMethods = {
  "turn.start": method({
    description: "Starts a turn: commits the user item, turn, queued run and frozen run " +
      "config in one transaction, acknowledges, then publishes. Idempotent on clientRequestId",
    params: z.strictObject({
      threadId: ThreadId,
      branchId: BranchId.optional(),
      content: MessageContent,
      /** The model (with modelId); absent: the agent profile's, else the default model. */
      providerId: Identifier.optional(),
      /** The model (with providerId); absent: the agent profile's, else the default model. */
      modelId: Identifier.optional(),
      clientRequestId: Identifier.optional(),
      attachments: AttachmentInputs.optional(),
      reasoningEffort: ReasoningEffort.nullable().optional(),
      /** The preset asked for: lowered to the agent profile's, never raised. */
      executionPolicy: ExecutionPolicy.optional(),
      /** This Run's limits, replacing config.yaml's `budgets` (each omitted one: none). */
      budget: RunBudget.optional(),
      /**
       * The only tools this Run (and the sub-agents it delegates to) may call, by tool id;
       * all of the runtime's when absent. An unknown id is refused (`tool_not_found`).
       */
      tools: z.array(Identifier).max(RUN_TOOLS_MAX_COUNT).optional(),
      /**
       * Tools the caller runs itself (e.g. an AG-UI front end's): offered to the model next
       * to the runtime's; a call to one makes the Run wait for `run.submit_tool_result`.
       * A name the runtime's tools use is refused (`client_tool_conflict`).
       */
      clientTools: z.array(ClientTool).max(CLIENT_TOOLS_MAX_COUNT).optional(),
    }),
    result: z.looseObject({
      threadId: ThreadId,
      branchId: BranchId,
      turnId: TurnId,
      runId: RunId,
    }),
  }),
  "turn.list": method({
    description: "Pages a branch's history (the active branch when absent): the turns it " +
      "shares with the branches it was forked from, then its own, each with all runs and " +
      "items, its previous turn and its siblings; a page is in ordinal " +
      "order, and pages run from the oldest turn (forward, the default) or from the newest " +
      "(backward: the newest page first, then older ones)",
    params: z.strictObject({
      threadId: ThreadId,
      branchId: BranchId.optional(),
      cursor: Cursor.nullable().optional(),
      limit: z.int().min(1).max(PAGE_MAX_LIMIT).optional(),
      direction: z.enum(["forward", "backward"]).optional(),
    }),
    result: z.looseObject({
      turns: z.array(Turn),
      nextCursor: Cursor.nullable(),
      hasMore: z.boolean(),
      snapshotSeq: z.int().min(0),
    }),
  }),
  "run.cancel": method({
    description: "Asks a run to stop; accepted only means the request was taken",
    params: z.strictObject({ runId: RunId }),
    result: z.looseObject({ accepted: z.boolean(), runId: RunId, status: RunStatus }),
  }),
  "run.resume": method({
    description: "Continues a Run that settled failed or cancelled with a new Run in the same " +
      "Turn: its completed steps are context (their tools are not run again), a call that " +
      "started without a result is reported to the model as interrupted, and the config is " +
      "frozen again from the current configuration. Only the latest Run of the branch's " +
      "latest Turn; idempotent on clientRequestId",
    params: z.strictObject({ runId: RunId, clientRequestId: Identifier.optional() }),
    result: z.looseObject({
      threadId: ThreadId,
      branchId: BranchId,
      turnId: TurnId,
      runId: RunId,
      resumedFromRunId: RunId,
    }),
  }),
  "run.steer": method({
    description: "Adds text to a running run; it enters the run's next model call",
    params: z.strictObject({
      runId: RunId,
      content: MessageContent,
      /** Guards against steering a different run than the one the user saw. */
      expectedRunId: RunId.optional(),
      clientRequestId: Identifier.optional(),
      attachments: AttachmentInputs.optional(),
    }),
    result: z.looseObject({
      accepted: z.boolean(),
      runId: RunId,
      clientRequestId: Identifier.nullable(),
      status: z.literal("received"),
    }),
  }),
  "run.submit_tool_result": method({
    description: "Gives a waiting Run the result of a client-side tool call (a tool the " +
      "caller offered in turn.start clientTools); once every such call of the step has its " +
      "result, the Run goes on",
    params: z.strictObject({
      runId: RunId,
      /** The waiting call's `tool_call` item. */
      toolCallItemId: ItemId,
      /** What the tool returned, as the model reads it. */
      content: z.string().max(MESSAGE_CONTENT_MAX_CHARS),
      /** Whether the tool failed (the content says why). */
      isError: z.boolean().optional(),
    }),
    result: z.looseObject({
      runId: RunId,
      toolCallItemId: ItemId,
      /** Whether the Run went on (no client call of its step waits any more). */
      resumed: z.boolean(),
      /** The step's client calls still without a result. */
      pendingToolCallItemIds: z.array(ItemId),
    }),
  }),
  "event.replay": method({
    description: "Reads committed events after a seq, to catch up after a reconnect",
    params: z.strictObject({
      afterSeq: z.int().min(0),
      limit: z.int().min(1).max(REPLAY_MAX_LIMIT).optional(),
    }),
    result: z.looseObject({
      events: z.array(EventEnvelope),
      latestSeq: z.int().min(0),
      nextAfterSeq: z.int().min(0),
      hasMore: z.boolean(),
      /**
       * Seqs of this page whose payload a thread deletion erased: they are not in `events`;
       * a client counts them as seen (no gap). Absent when the page has none.
       */
      erasedSeqs: z.array(z.int().min(1)).optional(),
    }),
  }),
};

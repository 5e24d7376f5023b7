/**
 * The `subagent` tool: a child thread on the caller's workspace working on a task, nested
 * at most `DAEDALUS_SUBAGENT_MAX_DEPTH` deep. With `wait` (the default) the child runs
 * inline on the caller's worker (no deadlock when every worker is busy); otherwise it is
 * queued, at most {@linkcode SUBAGENTS_LIVE_MAX} at once, and cancelling the caller
 * cancels it.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { SUBAGENTS_LIVE_MAX } from "../limits.ts";
import { codedError } from "../_coded_error.ts";
import { sessionsOf } from "./_sessions.ts";
import { finishDelegation } from "./_delegate.ts";
import description from "./subagent.md" with { type: "text" };

/** Parameters of {@linkcode subagentTool}. */
export interface SubagentParams {
  /** The task. */
  task: string;
  /** The child thread's title. */
  title?: string;
  /** Wait for the answer (default true). */
  wait?: boolean;
  /** The agent profile it runs (default `explore`: read-only). */
  agent?: string;
}

/** The schema of {@linkcode SubagentParams}. */
export const SubagentParams: ToolParams<SubagentParams> = z.strictObject({
  task: z.string().min(1).max(100_000),
  title: z.string().min(1).max(200).optional(),
  wait: z.boolean().optional(),
  agent: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/).optional(),
});

/** Delegates a task to a sub-agent. */
export const subagentTool: ToolDefinition<SubagentParams> = defineTool({
  id: "subagent",
  description: description.trimEnd(),
  params: SubagentParams,
  mutating: true,
  risk: "session",
  run: async (params, context) => {
    const sessions = sessionsOf(context);
    const depth = sessions.subagentDepth + 1;
    if (depth > sessions.subagentMaxDepth) {
      throw codedError(
        "subagent_depth_limit",
        `Sub-agents may nest at most ${sessions.subagentMaxDepth} deep`,
      );
    }
    const wait = params.wait ?? true;
    if (!wait && sessions.liveQueuedRuns() >= SUBAGENTS_LIVE_MAX) {
      throw codedError(
        "subagent_limit",
        `At most ${SUBAGENTS_LIVE_MAX} sub-agents may run at once`,
      );
    }
    const child = await sessions.createThread({
      title: params.title ?? `Sub-agent: ${params.task.slice(0, 60)}`,
      clientRequestId: `subagent:${context.itemId}`,
      sharedWorkspace: true,
    });
    const run = await sessions.startRun({
      threadId: child.id,
      agentId: params.agent ?? "explore",
      content: params.task,
      clientRequestId: `subagent:${context.itemId}`,
      itemData: {
        subagent: { parentThreadId: context.threadId, parentRunId: context.runId, depth },
      },
      runConfig: { subagentDepth: depth, parentRunId: context.runId },
    });
    return await finishDelegation(sessions, run, wait, context.signal);
  },
});

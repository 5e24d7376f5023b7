/**
 * Tools that start Runs elsewhere: `thread_send` (a message into another thread,
 * at most 3 hops) and `subagent` (a child thread working on a task, nested at most
 * `DAEDALUS_SUBAGENT_MAX_DEPTH` deep). With `wait`, the child runs inline on the
 * caller's worker (no deadlock when every worker is busy); otherwise it is queued,
 * and cancelling the caller cancels it.
 *
 * @module
 */
import { z } from "zod";
import {
  createThread,
  getThread,
  hasActiveRun,
  readRunConfig,
  readRunItems,
  readRunScope,
  readThreadSlice,
  startTurn,
} from "@daedalus/storage";
import type { LoopTool, LoopToolContext, LoopToolResult } from "../loop/tools.ts";
import {
  fullAccessRefusal,
  sessionTool,
  type SessionToolDeps,
  SUBAGENTS_LIVE_MAX,
  THREAD_SEND_MAX_HOPS,
  toolError,
} from "./_session.ts";

const ThreadRef = z.string().regex(/^thread_[0-9a-f]{32}$/);

/**
 * The delegating tools.
 *
 * @param deps store, scheduler, publisher, depth limit
 * @returns thread_send, subagent
 */
export function createDelegateTools(deps: SessionToolDeps): LoopTool[] {
  const liveChildren = new Map<string, Set<string>>();

  /** Starts a turn on `threadId` with the caller's frozen config, then waits or queues it. */
  async function delegate(
    context: LoopToolContext,
    threadId: string,
    content: string,
    extra: { itemData: Record<string, unknown>; runConfig: Record<string, unknown>; key: string },
    wait: boolean,
  ): Promise<LoopToolResult> {
    const caller = deps.store.read((db) => readRunConfig(db, context.runId));
    const started = startTurn(deps.store, {
      threadId,
      content,
      providerId: String(caller.providerId),
      modelId: String(caller.modelId),
      clientRequestId: `${extra.key}:${context.itemId}`,
      runConfig: { ...caller, ...extra.runConfig },
      itemData: extra.itemData,
    });
    deps.publish(started.events);
    const { runId, turnId } = started.result;
    if (!wait) {
      const children = liveChildren.get(context.runId) ?? new Set<string>();
      liveChildren.set(context.runId, children);
      children.add(runId);
      context.signal.addEventListener("abort", () => deps.scheduler.cancel(runId), { once: true });
      deps.scheduler.enqueue(runId, threadId);
      return {
        content:
          `Started run ${runId} in thread ${threadId}; read its result later with thread_read.`,
        details: { threadId, turnId, runId, status: "queued" },
      };
    }
    await deps.scheduler.runInline(runId, threadId, context.signal);
    const scope = deps.store.read((db) => readRunScope(db, runId));
    const slice = deps.store.read((db) => readThreadSlice(db, { threadId, maxItems: 41 }));
    const answer = slice.items.filter((i) =>
      i.runId === runId && i.role === "assistant" && i.kind === "message"
    )
      .map((i) => i.content).join("\n");
    return {
      content: scope.status === "completed"
        ? answer || "(the run completed without text)"
        : `The run ended ${scope.status}. ${answer ? `Partial text:\n${answer}` : ""}`,
      isError: scope.status !== "completed",
      details: { threadId, turnId, runId, status: scope.status },
    };
  }

  function liveCount(runId: string): number {
    const children = liveChildren.get(runId);
    if (!children) return 0;
    for (const child of children) {
      const status = deps.store.read((db) => readRunScope(db, child)).status;
      if (status !== "queued" && status !== "running") children.delete(child);
    }
    return children.size;
  }

  return [
    sessionTool({
      name: "thread_send",
      description: "Send a message to another conversation, starting a run there; `wait` " +
        "waits for its answer. Refused if that thread is busy or archived.",
      params: z.strictObject({
        threadId: ThreadRef,
        content: z.string().min(1).max(100_000),
        wait: z.boolean().optional(),
      }),
      mutating: true,
      run: async (params, context) => {
        const refusal = fullAccessRefusal(deps.store, context.runId, "thread_send");
        if (refusal) return Promise.resolve(refusal);
        if (params.threadId === context.threadId) {
          return toolError("invalid_arguments", "Cannot send to this same thread");
        }
        const { thread } = deps.store.read((db) => getThread(db, params.threadId));
        if (thread.archivedAt !== null) {
          return toolError("thread_archived", `Thread ${thread.id} is archived`);
        }
        if (
          deps.scheduler.isThreadBusy(thread.id) ||
          deps.store.read((db) => hasActiveRun(db, thread.id))
        ) {
          return toolError("thread_busy", `Thread ${thread.id} has an active run`);
        }
        const hops = callerHops(deps, context) + 1;
        if (hops > THREAD_SEND_MAX_HOPS) {
          return toolError(
            "thread_hop_limit",
            `A cross-thread chain may not exceed ${THREAD_SEND_MAX_HOPS} hops`,
          );
        }
        return await delegate(
          context,
          thread.id,
          `[Cross-session message from thread ${context.threadId}]\n${params.content}`,
          {
            key: "thread_send",
            itemData: {
              threadSend: { fromThreadId: context.threadId, fromRunId: context.runId, hops },
            },
            runConfig: {},
          },
          params.wait ?? false,
        );
      },
    }),
    sessionTool({
      name: "subagent",
      description: "Delegate a task to a sub-agent in a new thread on this workspace. Waits " +
        "for its answer unless `wait: false` (then collect it with thread_read).",
      params: z.strictObject({
        task: z.string().min(1).max(100_000),
        title: z.string().min(1).max(200).optional(),
        wait: z.boolean().optional(),
      }),
      mutating: true,
      run: async (params, context) => {
        const refusal = fullAccessRefusal(deps.store, context.runId, "subagent");
        if (refusal) return Promise.resolve(refusal);
        const caller = deps.store.read((db) => readRunConfig(db, context.runId));
        const depth = (typeof caller.subagentDepth === "number" ? caller.subagentDepth : 0) + 1;
        if (depth > deps.subagentMaxDepth) {
          return toolError(
            "subagent_depth_limit",
            `Sub-agents may nest at most ${deps.subagentMaxDepth} deep`,
          );
        }
        const wait = params.wait ?? true;
        if (!wait && liveCount(context.runId) >= SUBAGENTS_LIVE_MAX) {
          return toolError(
            "subagent_limit",
            `At most ${SUBAGENTS_LIVE_MAX} sub-agents may run at once`,
          );
        }
        const { thread: parent } = deps.store.read((db) => getThread(db, context.threadId));
        const root = parent.workspace?.rootUri;
        const created = await createThread(deps.store, {
          title: params.title ?? `Sub-agent: ${params.task.slice(0, 60)}`,
          clientRequestId: `subagent:${context.itemId}`,
          workspacesRoot: deps.workspacesRoot,
          workspace: root ? { rootUri: root, name: parent.workspace?.name } : undefined,
        });
        deps.publish(created.events);
        return await delegate(context, created.result.thread.id, params.task, {
          key: "subagent",
          itemData: {
            subagent: { parentThreadId: context.threadId, parentRunId: context.runId, depth },
          },
          runConfig: { subagentDepth: depth, parentRunId: context.runId },
        }, wait);
      },
    }),
  ];
}

/** The hop count of the message that started the caller's turn (0 for a user's own). */
function callerHops(deps: SessionToolDeps, context: LoopToolContext): number {
  const [first] = deps.store.read((db) => readRunItems(db, context.runId));
  const send = first?.data.threadSend as { hops?: unknown } | undefined;
  return typeof send?.hops === "number" ? send.hops : 0;
}

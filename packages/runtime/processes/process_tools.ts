/**
 * The six process tools over the runtime's ProcessManager: start, read, wait, stop,
 * write, resize. Commands belong to their thread (a model can never reach another
 * thread's process) and need the `full_access` permission mode, since a spawned
 * command escapes Deno's permission checks. Every process tool, not only start, is refused
 * in `read_only`/`workspace_write`: a narrowed Run acts only on what its own mode may
 * start, so it cannot read, feed, wait on, resize or stop a command a full_access Run of
 * the same thread left running.
 *
 * @module
 */
import { z } from "zod";
import { getThread, readRunConfig, type StateStore } from "@daedalus/storage";
import type { ProcessManager } from "@daedalus/tools";
import type { LoopTool, LoopToolContext, LoopToolResult } from "../loop/tools.ts";
import { sessionTool, toolError } from "../session_tools/_session.ts";

const ProcessRef = z.string().regex(/^process_[0-9a-f]{32}$/);

/** What the process tools need. */
export interface ProcessToolDeps {
  /** The state store (run config, thread workspace). */
  store: StateStore;
  /** The runtime's process manager. */
  manager: ProcessManager;
}

/**
 * The process tools.
 *
 * @param deps store and manager
 * @returns process_start/read/wait/stop/write/resize
 */
export function createProcessTools(deps: ProcessToolDeps): LoopTool[] {
  const denied = (context: LoopToolContext): LoopToolResult | null => {
    const config = deps.store.read((db) => readRunConfig(db, context.runId));
    const policy = String(config.executionPolicy ?? "full_access");
    return policy === "full_access" ? null : toolError(
      "permission_denied",
      `permission_denied: process tools need full_access; this run is ${policy}`,
    );
  };
  const owned = (context: LoopToolContext, processId: string) => {
    const record = deps.manager.record(processId);
    if (!record || record.threadId !== context.threadId) {
      throw Object.assign(new Error(`No process ${processId} in this thread`), {
        code: "process_not_found",
      });
    }
    return record;
  };
  const page = async (processId: string, cursor?: number) => {
    const read = await deps.manager.read(processId, cursor ?? 0);
    return {
      content: `[${read.state}${read.exitCode === null ? "" : ` exit ${read.exitCode}`}] ` +
        (read.output || "(no output)") +
        (read.hasMore ? `\n(more output: cursor=${read.nextCursor})` : ""),
      details: { ...read },
    };
  };
  return [
    sessionTool({
      name: "process_start",
      description: "Run a shell command in the workspace or `cwd`. A foreground command must " +
        "finish or be stopped before your run ends; a `background` one may outlive it. " +
        "`supervise` restarts it when it exits; `pty` gives it a terminal.",
      params: z.strictObject({
        command: z.string().min(1).max(32_768),
        cwd: z.string().min(1).max(4096).optional(),
        background: z.boolean().optional(),
        pty: z.boolean().optional(),
        supervise: z.enum(["always", "on-failure"]).optional(),
      }),
      mutating: true,
      run: async (params, context) => {
        const refusal = denied(context);
        if (refusal) return refusal;
        const { thread } = deps.store.read((db) => getThread(db, context.threadId));
        const root = thread.workspace?.rootUri ?? Deno.cwd();
        const cwd = params.cwd
          ? (params.cwd.startsWith("/") ? params.cwd : `${root}/${params.cwd}`)
          : root;
        const record = await deps.manager.start({
          threadId: context.threadId,
          runId: context.runId,
          itemId: context.itemId,
          command: params.command,
          cwd,
          background: params.background ?? false,
          pty: params.pty ?? false,
          supervise: params.supervise,
        });
        return {
          content: `Started ${record.processId} (pid ${record.pid}) in ${cwd}`,
          // How it runs goes with the result, so a client's card can say "in the background".
          details: {
            processId: record.processId,
            pid: record.pid,
            cwd,
            background: record.background,
            pty: record.pty,
          },
        };
      },
    }),
    sessionTool({
      name: "process_read",
      description: "Read a command's output from byte `cursor`, 16 KiB a page.",
      params: z.strictObject({ processId: ProcessRef, cursor: z.int().min(0).optional() }),
      mutating: false,
      run: async (params, context) => {
        const refusal = denied(context);
        if (refusal) return refusal;
        owned(context, params.processId);
        return await page(params.processId, params.cursor);
      },
    }),
    sessionTool({
      name: "process_wait",
      description: "Wait up to `timeoutMs` (default 30 s) for a command to finish.",
      params: z.strictObject({
        processId: ProcessRef,
        timeoutMs: z.int().min(0).max(600_000).optional(),
      }),
      mutating: false,
      run: async (params, context) => {
        const refusal = denied(context);
        if (refusal) return refusal;
        owned(context, params.processId);
        const waited = await deps.manager.wait(
          params.processId,
          params.timeoutMs ?? 30_000,
          context.signal,
        );
        const result = await page(params.processId);
        result.content = (waited.timedOut ? "(still running) " : "") + result.content;
        return result;
      },
    }),
    sessionTool({
      name: "process_stop",
      description: "Stop a command and its process tree.",
      params: z.strictObject({ processId: ProcessRef }),
      mutating: true,
      run: async (params, context) => {
        const refusal = denied(context);
        if (refusal) return refusal;
        owned(context, params.processId);
        const record = await deps.manager.stop(params.processId);
        return { content: `Stopped ${record.processId}`, details: { state: record.state } };
      },
    }),
    sessionTool({
      name: "process_write",
      description: "Write to a command's stdin.",
      params: z.strictObject({ processId: ProcessRef, data: z.string().max(65_536) }),
      mutating: true,
      run: async (params, context) => {
        const refusal = denied(context);
        if (refusal) return refusal;
        owned(context, params.processId);
        await deps.manager.write(params.processId, params.data);
        return { content: `Wrote ${params.data.length} characters to ${params.processId}` };
      },
    }),
    sessionTool({
      name: "process_resize",
      description: "Resize a pty command's terminal.",
      params: z.strictObject({
        processId: ProcessRef,
        cols: z.int().min(1).max(1000),
        rows: z.int().min(1).max(1000),
      }),
      mutating: true,
      run: async (params, context) => {
        const refusal = denied(context);
        if (refusal) return refusal;
        owned(context, params.processId);
        await deps.manager.resize(params.processId, params.cols, params.rows);
        return { content: `Resized ${params.processId} to ${params.cols}×${params.rows}` };
      },
    }),
  ];
}

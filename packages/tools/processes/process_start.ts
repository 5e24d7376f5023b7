/**
 * The `process_start` tool: a shell command in the thread's workspace (or `cwd`), in the
 * foreground, in the background, supervised or under a pty. It needs `full_access` (a
 * spawned command escapes Deno's permission checks), as does every process tool: a
 * narrowed Run cannot read, feed, wait on, resize or stop a command a full_access Run of
 * the same thread left running.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import type { SupervisePolicy } from "./process_manager.ts";
import { processesOf } from "./_process_tools.ts";
import description from "./process_start.md" with { type: "text" };

/** Parameters of {@linkcode processStartTool}. */
export interface ProcessStartParams {
  /** The shell command. */
  command: string;
  /** Its folder (relative to the workspace, or absolute). */
  cwd?: string;
  /** Whether the Run may end while it runs. */
  background?: boolean;
  /** Run it under a terminal. */
  pty?: boolean;
  /** Restart it when it exits. */
  supervise?: SupervisePolicy;
}

/** The schema of {@linkcode ProcessStartParams}. */
export const ProcessStartParams: ToolParams<ProcessStartParams> = z.strictObject({
  command: z.string().min(1).max(32_768),
  cwd: z.string().min(1).max(4096).optional(),
  background: z.boolean().optional(),
  pty: z.boolean().optional(),
  supervise: z.enum(["always", "on-failure"]).optional(),
});

/** Starts a command. */
export const processStartTool: ToolDefinition<ProcessStartParams> = defineTool({
  id: "process_start",
  // deno fmt ends the file with a newline; the model is shown the text without it.
  description: description.trimEnd(),
  params: ProcessStartParams,
  mutating: true,
  risk: "process",
  run: async (params, context) => {
    const root = context.workspaceRoot;
    const cwd = params.cwd
      ? (params.cwd.startsWith("/") ? params.cwd : `${root}/${params.cwd}`)
      : root;
    const record = await processesOf(context).start({
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
});

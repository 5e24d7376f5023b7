/**
 * The built-in tool sets: every tool the runtime offers a Run, one step from `mod.ts`.
 *
 * @module
 */
import type { ToolDefinition } from "./tool.ts";
import { readTool } from "./files/read.ts";
import { writeTool } from "./files/write.ts";
import { editTool } from "./files/edit.ts";
import { listTool } from "./files/list.ts";
import { globTool } from "./files/glob.ts";
import { grepTool } from "./files/grep.ts";
import { processStartTool } from "./processes/process_start.ts";
import { processReadTool } from "./processes/process_read.ts";
import { processWaitTool } from "./processes/process_wait.ts";
import { processStopTool } from "./processes/process_stop.ts";
import { processWriteTool } from "./processes/process_write.ts";
import { processResizeTool } from "./processes/process_resize.ts";
import { historyReadTool } from "./sessions/history_read.ts";
import { threadListTool } from "./sessions/thread_list.ts";
import { threadReadTool } from "./sessions/thread_read.ts";
import { threadCreateTool } from "./sessions/thread_create.ts";
import { threadRenameTool } from "./sessions/thread_rename.ts";
import { threadArchiveTool } from "./sessions/thread_archive.ts";
import { threadSendTool } from "./sessions/thread_send.ts";
import { subagentTool } from "./sessions/subagent.ts";
import { memoryTool } from "./memory/memory.ts";
import { askUserTool } from "./conversation/ask_user.ts";
import { planTool } from "./conversation/plan.ts";

/** The six file tools: read, write, edit, list, glob, grep. */
export const FILE_TOOLS: readonly ToolDefinition<unknown>[] = [
  readTool,
  writeTool,
  editTool,
  listTool,
  globTool,
  grepTool,
];

/** The six process tools (they need `context.processes`). */
export const PROCESS_TOOLS: readonly ToolDefinition<unknown>[] = [
  processStartTool,
  processReadTool,
  processWaitTool,
  processStopTool,
  processWriteTool,
  processResizeTool,
];

/** The eight session tools: history, threads, cross-thread messages, sub-agents. */
export const SESSION_TOOLS: readonly ToolDefinition<unknown>[] = [
  historyReadTool,
  threadListTool,
  threadReadTool,
  threadCreateTool,
  threadRenameTool,
  threadArchiveTool,
  threadSendTool,
  subagentTool,
];

/** The two conversation tools: a question for the user, and the plan the user sees. */
export const CONVERSATION_TOOLS: readonly ToolDefinition<unknown>[] = [askUserTool, planTool];

/** All 23 built-in tools: files, processes, memory, sessions, conversation. */
export const BUILTIN_TOOLS: readonly ToolDefinition<unknown>[] = [
  ...FILE_TOOLS,
  ...PROCESS_TOOLS,
  memoryTool,
  ...SESSION_TOOLS,
  ...CONVERSATION_TOOLS,
];

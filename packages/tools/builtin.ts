/**
 * The built-in tool sets.
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

/** The six file tools: read, write, edit, list, glob, grep. */
export const FILE_TOOLS: readonly ToolDefinition<unknown>[] = [
  readTool,
  writeTool,
  editTool,
  listTool,
  globTool,
  grepTool,
];

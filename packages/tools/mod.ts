/**
 * @daedalus/tools — the tool contract and the built-in file, search and process
 * tools. Tools get a ToolContext from the runtime and never touch storage.
 *
 * Imports only `@daedalus/protocol`. Every call goes through {@linkcode executeTool}, the
 * one wrapper that validates arguments, honours cancellation, maps errors, withholds
 * credentials, moves results over 64 KiB to an artifact file and times the call.
 *
 * @example
 * ```ts
 * import { executeTool, FILE_TOOLS } from "@daedalus/tools";
 *
 * const read = FILE_TOOLS.find((tool) => tool.id === "read")!;
 * const result = await executeTool(read, { path: "README.md", limit: 20 }, context);
 * console.log(result.isError ? result.errorCode : result.content);
 * ```
 *
 * @module
 */
export {
  defineTool,
  type FileChangeFact,
  type ToolContext,
  type ToolDefinition,
  ToolError,
  type ToolFacts,
  type ToolResult,
  type ToolRisk,
} from "./tool.ts";
export { executeTool } from "./execute.ts";
export { FILE_TOOLS } from "./builtin.ts";
export { ReadParams, readTool } from "./files/read.ts";
export { WriteParams, writeTool } from "./files/write.ts";
export { EditParams, editTool } from "./files/edit.ts";
export { type ListEntry, ListParams, listTool } from "./files/list.ts";
export { GlobParams, globTool } from "./files/glob.ts";
export { GrepParams, grepTool } from "./files/grep.ts";
export type { FileCapture, FileChange, NewlineStyle } from "./files/capture.ts";
export { isWithin, type ResolvedPath, resolveToolPath } from "./files/paths.ts";
export {
  AccessDenied,
  type AccessRules,
  type AccessRulesInput,
  assertNotProtected,
  buildAccessRules,
  type CheckedFile,
  type FileId,
  mayRead,
  openChecked,
  type ProtectedFile,
  readChecked,
} from "./files/access.ts";
export {
  ProcessManager,
  type ProcessManagerOptions,
  type StartProcessOptions,
  type SupervisePolicy,
} from "./processes/process_manager.ts";
export { ProcessError } from "./processes/process_error.ts";

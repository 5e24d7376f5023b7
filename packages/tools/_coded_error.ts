import { ToolError } from "./tool.ts";

/**
 * A tool failure whose text starts with its code (`thread_busy: Thread … has an active
 * run`), as the session, process and memory tools have always worded theirs.
 */
export function codedError(code: string, message: string): ToolError {
  return new ToolError(code, `${code}: ${message}`);
}

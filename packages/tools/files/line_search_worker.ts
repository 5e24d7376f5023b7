/**
 * The Worker a {@linkcode openLineSearch} search runs in when it was started on the
 * runtime's own thread: it compiles the pattern and matches file texts it is sent, so that
 * neither blocks the runtime. It has no permissions; it only sees the texts it is given.
 *
 * Messages in: `{ pattern, ignoreCase }` once, then `{ text, max }` per file.
 * Messages out: `{ ok: true }` / `{ lines }` or `{ error: { code, message } }`.
 *
 * @module
 */
import { ToolError } from "../tool.ts";
import { compileLinePattern, type LinePattern, matchingLineIndexes } from "./line_pattern.ts";

const scope = self as unknown as Worker;
let compiled: LinePattern | null = null;

scope.onmessage = async (event: MessageEvent) => {
  const data = event.data as
    | { pattern: string; ignoreCase: boolean }
    | { text: string; max: number };
  try {
    if ("pattern" in data) {
      compiled = compileLinePattern(data.pattern, data.ignoreCase);
      scope.postMessage({ ok: true });
    } else if (compiled !== null) {
      scope.postMessage({ lines: await matchingLineIndexes(compiled, data.text, data.max) });
    }
  } catch (error) {
    const code = error instanceof ToolError ? error.code : "tool_failed";
    const message = error instanceof Error ? error.message : String(error);
    scope.postMessage({ error: { code, message } });
  }
};

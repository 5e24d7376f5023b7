/**
 * `tool.list`: the runtime's tools as runs are offered them now (built-in and the library
 * user's, then the enabled MCP servers' offered tools), for clients that name tools.
 *
 * @module
 */
import type { ResultOf, ValidParamsOf } from "@daedalus/protocol";
import type { ToolDefinition } from "@daedalus/tools";
import type { Handled } from "./services.ts";

/** The `tool.*` handlers. */
export type ToolHandlers = {
  [M in "tool.list"]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

/**
 * Builds the handlers.
 *
 * @param tools the runtime's tools by name (MCP servers change it as they come and go)
 * @returns the handlers
 */
export function createToolHandlers(
  tools: ReadonlyMap<string, ToolDefinition<unknown>>,
): ToolHandlers {
  return {
    "tool.list": () =>
      Promise.resolve({
        result: {
          tools: [...tools].map(([id, tool]) => ({
            id,
            description: tool.description,
            mutating: tool.mutating,
            risk: tool.risk,
            mcp: tool.mcp ? { server: tool.mcp.server, tool: tool.mcp.tool } : null,
          })),
        },
      }),
  };
}

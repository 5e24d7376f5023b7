/**
 * One MCP tool as a Daedalus tool: the same {@linkcode ToolDefinition} contract as the
 * built-in tools, so every call goes through the one wrapper (`executeTool`: validation,
 * the gate and approvals, cancellation, credential redaction, artifacts, timing, breakers).
 * Its parameters are the server's JSON Schema, checked with the SDK's JSON Schema validator
 * (Ajv) before the call. Annotations inform its risk: `readOnlyHint` makes it a read,
 * anything else may change the world outside the workspace, so it is a `process`-class tool
 * (the sealed modes refuse it; `ask` asks). The server's `permission`, when configured,
 * replaces the preset's decision.
 *
 * @module
 */
import { AjvJsonSchemaValidator, type Tool } from "./_sdk.ts";
import type {
  ToolDefinition,
  ToolParams,
  ToolParamsResult,
  ToolProgress,
  ToolResult,
} from "@daedalus/tools";
import { MCP_TOOL_DESCRIPTION_MAX_CHARS } from "../limits.ts";
import { saveToolImages, type ToolImage } from "./tool_images.ts";

/** A call's answer: the mapped result and the images it returned (saved for vision models). */
export interface McpCallAnswer {
  /** The result as the model reads it. */
  readonly result: ToolResult;
  /** The result's image blocks. */
  readonly images: readonly ToolImage[];
}

/** Calls the tool on its server (the connection's `callTool`). */
export type McpToolCaller = (
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  onProgress?: (update: ToolProgress) => void,
  workspaceRoot?: string,
) => Promise<McpCallAnswer>;

/** What an MCP tool is made from. */
export interface McpToolSpec {
  /** The server's configured name. */
  readonly server: string;
  /** The model-facing name (`tool_names.ts`). */
  readonly name: string;
  /** The tool as the server listed it. */
  readonly tool: Tool;
  /** The server's configured default decision. */
  readonly permission?: "allow" | "ask" | "deny";
}

/** A Daedalus tool that is an MCP server's: where it comes from. */
export interface McpToolDefinition extends ToolDefinition<Record<string, unknown>> {
  /** The server's name. */
  readonly mcpServer: string;
  /** The tool's own name on its server. */
  readonly mcpTool: string;
}

const validators = new AjvJsonSchemaValidator();

/**
 * The tool.
 *
 * @param spec server, name, the listed tool, its permission
 * @param call calls it on the server
 * @returns the definition
 * @throws {Error} when the input schema cannot be compiled (the server is then failed)
 */
export function mcpToolDefinition(spec: McpToolSpec, call: McpToolCaller): McpToolDefinition {
  const readOnly = spec.tool.annotations?.readOnlyHint === true;
  return {
    id: spec.name,
    mcpServer: spec.server,
    mcpTool: spec.tool.name,
    mcp: { server: spec.server, tool: spec.tool.name },
    description: describe(spec),
    params: jsonSchemaParams(spec.tool.inputSchema as Record<string, unknown>),
    mutating: !readOnly,
    risk: readOnly ? "read" : "process",
    ...(spec.permission ? { defaultDecision: spec.permission } : {}),
    run: async (args, context) => {
      const { result, images } = await call(
        spec.tool.name,
        args,
        context.signal,
        context.reportProgress,
        context.workspaceRoot,
      );
      if (images.length === 0) return result;
      const saved = await saveToolImages(images, context);
      return saved.length === 0
        ? result
        : { ...result, details: { ...result.details, images: saved } };
    },
  };
}

function describe(spec: McpToolSpec): string {
  const own = spec.tool.description ?? spec.tool.title ?? spec.tool.name;
  const text = `(MCP server ${spec.server}) ${own}`;
  return text.length <= MCP_TOOL_DESCRIPTION_MAX_CHARS
    ? text
    : `${text.slice(0, MCP_TOOL_DESCRIPTION_MAX_CHARS - 1)}…`;
}

/**
 * A JSON Schema as a tool's parameter schema: `safeParse` validates with Ajv (every
 * problem reported, in one issue the model reads), `toJSONSchema` is the schema as listed.
 *
 * @param schema the tool's `inputSchema` (an object schema: the SDK refuses others)
 * @returns the parameter schema
 * @throws {Error} when Ajv cannot compile it
 */
export function jsonSchemaParams(
  schema: Record<string, unknown>,
): ToolParams<Record<string, unknown>> {
  const validate = validators.getValidator<Record<string, unknown>>(schema as never);
  const { $schema: _url, ...offered } = schema;
  return {
    safeParse(data: unknown): ToolParamsResult<Record<string, unknown>> {
      const verdict = validate(data);
      if (verdict.valid) return { success: true, data: verdict.data };
      return { success: false, error: { issues: [{ path: [], message: verdict.errorMessage }] } };
    },
    toJSONSchema: () => structuredClone(offered),
  };
}

/**
 * An MCP `tools/call` result as a Daedalus tool result: text blocks in order; an embedded
 * text resource with its URI; a resource link, image, audio or binary resource as a short
 * note (kind, type, size; an image is also shown to a vision model: `tool_images.ts`); `structuredContent` as JSON when no text block says it already; `isError`
 * as the tool error `mcp_tool_error` with the server's text. The size limits and the
 * artifact offload are the one wrapper's (`executeTool`), as for built-in tools.
 *
 * @module
 */
import type { ToolResult } from "@daedalus/tools";
import { MCP_STRUCTURED_DETAILS_MAX_BYTES } from "../limits.ts";

/** The error code of a result the server marked `isError`. */
export const MCP_TOOL_ERROR = "mcp_tool_error";

/** A content block as the SDK parses it (unknown kinds are kept loose). */
export interface McpContentBlock {
  /** `text`, `image`, `audio`, `resource_link`, `resource`. */
  readonly type: string;
  readonly [key: string]: unknown;
}

/** The parts of a `tools/call` result this mapping reads. */
export interface McpCallResult {
  /** The content blocks. */
  readonly content?: readonly McpContentBlock[];
  /** Structured output (validated against the tool's outputSchema by the SDK). */
  readonly structuredContent?: Record<string, unknown>;
  /** Whether the tool failed. */
  readonly isError?: boolean;
}

/** What a call's details say about the server's answer (besides the wrapper's timing). */
interface McpDetails {
  server: string;
  tool: string;
  images?: { mimeType: string; bytes: number }[];
  structuredContent?: Record<string, unknown>;
  progress?: { progress: number; total?: number; message?: string };
}

/**
 * The image blocks of a result, in order (`tool_images.ts` saves them for vision models).
 *
 * @param result the server's result
 * @returns each image's base64 data and type
 */
export function mcpImages(result: McpCallResult): { data: string; mimeType: string }[] {
  return (result.content ?? []).flatMap((block) =>
    block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string"
      ? [{ data: block.data, mimeType: block.mimeType }]
      : []
  );
}

/**
 * Maps a result.
 *
 * @param result the server's result
 * @param origin the server's name and the tool's own name (for the details)
 * @returns the tool result
 * @example
 * ```ts
 * mcpToolResult({ content: [{ type: "text", text: "Echo: hi" }] }, { server: "e", tool: "echo" });
 * // { content: "Echo: hi", details: { server: "e", tool: "echo" } }
 * ```
 */
export function mcpToolResult(
  result: McpCallResult,
  origin: { server: string; tool: string },
): ToolResult {
  const details: McpDetails = { server: origin.server, tool: origin.tool };
  const parts: string[] = [];
  for (const block of result.content ?? []) parts.push(describeBlock(block, details));
  const structured = result.structuredContent;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    // The spec asks servers to repeat structured output as text; when they do, once is enough.
    if (!parts.some((part) => sameJson(part, structured))) parts.push(json);
    if (new TextEncoder().encode(json).length <= MCP_STRUCTURED_DETAILS_MAX_BYTES) {
      details.structuredContent = structured;
    }
  }
  const text = parts.join("\n");
  if (result.isError === true) {
    return {
      isError: true,
      errorCode: MCP_TOOL_ERROR,
      content: text === "" ? `${origin.tool} failed without saying why` : text,
      details: { ...details },
    };
  }
  return { content: text === "" ? "(no output)" : text, details: { ...details } };
}

function describeBlock(block: McpContentBlock, details: McpDetails): string {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio": {
      const mimeType = typeof block.mimeType === "string" ? block.mimeType : "unknown type";
      const bytes = base64Bytes(block.data);
      if (block.type === "image") (details.images ??= []).push({ mimeType, bytes });
      return block.type === "image"
        ? `[image ${mimeType}, ${bytes} bytes: shown to models that take images]`
        : `[audio ${mimeType}, ${bytes} bytes: not shown, tool results carry text]`;
    }
    case "resource_link":
      return `[resource ${String(block.uri)}${block.name ? ` (${String(block.name)})` : ""}]`;
    case "resource": {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      const uri = String(resource.uri ?? "");
      if (typeof resource.text === "string") return `[resource ${uri}]\n${resource.text}`;
      const mimeType = typeof resource.mimeType === "string" ? `${resource.mimeType}, ` : "";
      return `[resource ${uri} (${mimeType}${base64Bytes(resource.blob)} bytes of binary data)]`;
    }
    default:
      return `[${String(block.type)} content: not supported]`;
  }
}

/** The decoded size of base64 text, without decoding it. */
function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const clean = data.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor(clean.length * 3 / 4) - padding);
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

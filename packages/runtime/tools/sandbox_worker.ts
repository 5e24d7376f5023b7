/**
 * The inside of a tool sandbox: a Worker whose Deno permissions are narrowed to a
 * Run's permission mode runs the file tools here, so a denied read or write is
 * refused by Deno itself, not only by the runtime's own checks.
 *
 * Messages in: `{type: "run", id, toolId, args, context, protectedValues}` and
 * `{type: "cancel", id}`. Message out: `{id, result, facts}`.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { executeTool, FILE_TOOLS, type ToolFacts, type ToolResult } from "@daedalus/tools";
import { ProtectedValues } from "../security/protected_values.ts";

const running = new Map<number, AbortController>();
const protectedValues = new ProtectedValues();

self.onmessage = async (event: MessageEvent) => {
  const message = event.data as {
    type: "run" | "cancel";
    id: number;
    toolId?: string;
    args?: unknown;
    context?: Record<string, string> & { protectedFiles?: string[] };
    protectedValues?: string[];
  };
  if (message.type === "cancel") {
    running.get(message.id)?.abort();
    return;
  }
  for (const value of message.protectedValues ?? []) protectedValues.register(value);
  const tool = FILE_TOOLS.find((candidate) => candidate.id === message.toolId);
  const facts: ToolFacts = { fileChanges: [], processes: [] };
  if (!tool) {
    self.postMessage({ id: message.id, result: { content: "Unknown tool", isError: true }, facts });
    return;
  }
  const controller = new AbortController();
  running.set(message.id, controller);
  const context = message.context ?? {};
  let result: ToolResult = await executeTool(
    tool,
    message.args,
    {
      threadId: context.threadId ?? "",
      runId: context.runId ?? "",
      itemId: context.itemId ?? "",
      workspaceRoot: context.workspaceRoot ?? "",
      artifactsRoot: context.artifactsRoot ?? "",
      executionPolicy: (context.executionPolicy ?? "read_only") as "read_only",
      protectedFiles: context.protectedFiles ?? [],
      signal: controller.signal,
      protectedValues,
      facts,
    },
  );
  running.delete(message.id);
  if (
    result.isError && result.errorCode !== "permission_denied" &&
    /NotCapable|Requires (read|write) access/.test(result.content)
  ) {
    result = {
      ...result,
      errorCode: "permission_denied",
      content: `permission_denied: ${result.content}`,
    };
  }
  self.postMessage({ id: message.id, result, facts });
};

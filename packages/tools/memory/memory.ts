/**
 * The `memory` tool: save, search, update and forget long-term memories through the
 * Run's memory operations (the RPC's paths: same validation, credential protection and
 * idempotency — the clientRequestId derives from the tool-call item).
 *
 * `file_read` and `file_append` work on the user's MEMORY.md instead (`memory_file_actions.ts`).
 *
 * The model is shown one object with an `action` field (a discriminated union's schema
 * costs every request ~400 B more); which fields each action takes is checked here just
 * as strictly: a missing one or one of another action is an `invalid_arguments` error.
 *
 * @module
 */
import { z } from "zod";
import type { MemoryKind } from "@daedalus/protocol";
import { defineTool, type ToolDefinition, ToolError, type ToolParams } from "../tool.ts";
import { codedError } from "../_coded_error.ts";
import type { MemoryOperations } from "./memory_operations.ts";
import { appendMemoryFileAction, readMemoryFileAction } from "./memory_file_actions.ts";
import description from "./memory.md" with { type: "text" };

/** Parameters of {@linkcode memoryTool}, one shape per action. */
export type MemoryParams =
  | {
    action: "save";
    content: string;
    kind?: MemoryKind;
    scope?: "global" | "workspace";
  }
  | { action: "search"; query: string; limit?: number }
  | { action: "update"; memoryId: string; content: string }
  | { action: "forget"; memoryId: string }
  | { action: "file_read" }
  | { action: "file_append"; content: string };

type Action = MemoryParams["action"];
type Field = "content" | "kind" | "scope" | "query" | "limit" | "memoryId";

/** The fields each action takes, the required ones first. */
const FIELDS: Record<Action, { required: readonly Field[]; optional: readonly Field[] }> = {
  save: { required: ["content"], optional: ["kind", "scope"] },
  search: { required: ["query"], optional: ["limit"] },
  update: { required: ["memoryId", "content"], optional: [] },
  forget: { required: ["memoryId"], optional: [] },
  file_read: { required: [], optional: [] },
  file_append: { required: ["content"], optional: [] },
};

const ALL_FIELDS: readonly Field[] = ["content", "kind", "scope", "query", "limit", "memoryId"];

const Content = z.string().trim().min(1).max(2048);

const Fields = z.strictObject({
  action: z.enum(["save", "search", "update", "forget", "file_read", "file_append"]),
  content: Content.optional(),
  kind: z.enum(["fact", "preference", "relationship", "project"]).optional(),
  scope: z.enum(["global", "workspace"]).optional(),
  query: z.string().min(1).max(2048).optional(),
  limit: z.int().min(1).max(8).optional(),
  memoryId: z.string().regex(/^memory_[0-9a-f]{32}$/).optional(),
});

/** The schema of {@linkcode MemoryParams}. */
export const MemoryParams: ToolParams<MemoryParams> = Fields.transform(
  (fields, context): MemoryParams => {
    const { required, optional } = FIELDS[fields.action];
    let fits = true;
    for (const field of required) {
      if (fields[field] !== undefined) continue;
      fits = false;
      context.addIssue({ code: "custom", path: [field], message: `required by ${fields.action}` });
    }
    for (const field of ALL_FIELDS) {
      if (fields[field] === undefined || required.includes(field) || optional.includes(field)) {
        continue;
      }
      fits = false;
      context.addIssue({ code: "custom", path: [field], message: `not taken by ${fields.action}` });
    }
    if (!fits) return z.NEVER;
    const { content = "", query = "", memoryId = "" } = fields;
    switch (fields.action) {
      case "save":
        return { action: "save", content, kind: fields.kind, scope: fields.scope };
      case "search":
        return { action: "search", query, limit: fields.limit };
      case "update":
        return { action: "update", memoryId, content };
      case "forget":
        return { action: "forget", memoryId };
      case "file_read":
        return { action: "file_read" };
      case "file_append":
        return { action: "file_append", content };
    }
  },
);

function memoryOf(operations: MemoryOperations | undefined): MemoryOperations {
  if (operations) return operations;
  throw new ToolError("tool_unavailable", "Memory is not available here");
}

/** Long-term memory. */
export const memoryTool: ToolDefinition<MemoryParams> = defineTool({
  id: "memory",
  // deno fmt ends the file with a newline; the model is shown the text without it.
  description: description.trimEnd(),
  params: MemoryParams,
  mutating: true,
  risk: "memory",
  run: (params, context) => {
    if ("content" in params && context.protectedValues.find(params.content)) {
      throw codedError("protected_value", "The content carries a configured credential");
    }
    if (params.action === "file_read") return readMemoryFileAction(context);
    if (params.action === "file_append") return appendMemoryFileAction(params.content, context);
    const memory = memoryOf(context.memory);
    const clientRequestId = `tool:${context.itemId}`;
    if (params.action === "search") {
      const result = memory.search(params.query, params.limit ?? 5);
      const lines = result.memories.map((m) =>
        `${m.memoryId} r${m.revision} [${m.kind}] ${m.content}`
      );
      const note = result.omittedCount > 0
        ? `\n(${result.omittedCount} more matches left out by the limit)`
        : "";
      return Promise.resolve({
        content: (lines.join("\n") || "(no memories match)") + note,
        details: { count: lines.length },
      });
    }
    if (params.action === "save") {
      const result = memory.save({
        kind: params.kind ?? "fact",
        scope: params.scope ?? "global",
        content: params.content,
        clientRequestId,
      });
      return Promise.resolve({ content: `Saved ${result.memoryId}`, details: { ...result } });
    }
    const result = params.action === "update"
      ? memory.update({ memoryId: params.memoryId, content: params.content, clientRequestId })
      : memory.forget({ memoryId: params.memoryId, clientRequestId });
    return Promise.resolve({
      content: `${
        params.action === "update" ? "Updated" : "Forgot"
      } ${result.memoryId} (revision ${result.resultingRevision})`,
      details: { ...result },
    });
  },
});

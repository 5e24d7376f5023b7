/**
 * The `memory` tool: save, search, update and forget long-term memories. It reuses
 * the RPC's paths (same validation, credential protection, idempotency — the
 * clientRequestId derives from the tool-call item); provenance points at the user
 * message that started the Run; the workspace scope key comes from the runtime.
 *
 * @module
 */
import { z } from "zod";
import {
  getThread,
  type MemoryStore,
  readItemSource,
  readRunItems,
  recallMemories,
  type StateStore,
} from "@daedalus/storage";
import type { LoopTool, LoopToolContext } from "../loop/tools.ts";
import { sessionTool, toolError } from "../session_tools/_session.ts";
import { workspaceMemoryKey } from "./workspace_key.ts";

const MemoryRef = z.string().regex(/^memory_[0-9a-f]{32}$/);
const Content = z.string().trim().min(1).max(2048);

const Params = z.discriminatedUnion("action", [
  z.strictObject({
    action: z.literal("save"),
    content: Content,
    kind: z.enum(["fact", "preference", "relationship", "project"]).optional(),
    scope: z.enum(["global", "workspace"]).optional(),
  }),
  z.strictObject({
    action: z.literal("search"),
    query: z.string().min(1).max(2048),
    limit: z.int().min(1).max(8).optional(),
  }),
  z.strictObject({ action: z.literal("update"), memoryId: MemoryRef, content: Content }),
  z.strictObject({ action: z.literal("forget"), memoryId: MemoryRef }),
]);

/** What the memory tool needs. */
export interface MemoryToolDeps {
  /** state.db (provenance, workspace). */
  store: StateStore;
  /** memory.db. */
  memory: MemoryStore;
  /** Configured credentials. */
  protectedValues: { find(text: string): boolean };
}

/**
 * The memory tool.
 *
 * @param deps stores and credentials
 * @returns the tool
 */
export function createMemoryTool(deps: MemoryToolDeps): LoopTool {
  const resolveItem = (itemId: string) => deps.store.read((db) => readItemSource(db, itemId));
  /** The user message that started the Run: every memory write cites it. */
  const triggeringItem = (context: LoopToolContext): string | null =>
    deps.store.read((db) => readRunItems(db, context.runId)).find((item) => item.role === "user")
      ?.id ?? null;

  const workspaceKey = (context: LoopToolContext) =>
    workspaceMemoryKey(
      deps.store.read((db) => getThread(db, context.threadId)).thread.workspace?.rootUri,
    );
  return sessionTool({
    name: "memory",
    description: "Long-term memory across conversations: `save` a durable fact or preference " +
      "worth remembering (never secrets), `search`, `update` or `forget` one by id.",
    params: Params,
    mutating: true,
    run: (params, context) => {
      if ("content" in params && deps.protectedValues.find(params.content)) {
        return Promise.resolve(
          toolError("protected_value", "The content carries a configured credential"),
        );
      }
      const clientRequestId = `tool:${context.itemId}`;
      const itemId = triggeringItem(context);
      const source = itemId ? { type: "session_item" as const, itemId } : undefined;
      if (params.action === "search") {
        const result = recallMemories(deps.memory.database, {
          query: params.query,
          workspaceKey: workspaceKey(context),
          maxRecords: params.limit ?? 5,
        });
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
        const key = workspaceKey(context);
        const scope = params.scope === "workspace" && key
          ? { type: "workspace" as const, key }
          : { type: "global" as const, key: null };
        const result = deps.memory.create(
          { kind: params.kind ?? "fact", scope, content: params.content, clientRequestId, source },
          { resolveItem },
        );
        return Promise.resolve({ content: `Saved ${result.memoryId}`, details: { ...result } });
      }
      const current = deps.memory.get(params.memoryId, { resolveItem });
      const result = params.action === "update"
        ? deps.memory.correct(
          {
            memoryId: params.memoryId,
            expectedRevision: current.revision,
            content: params.content,
            clientRequestId,
            source,
          },
          { resolveItem },
        )
        : deps.memory.forget({
          memoryId: params.memoryId,
          expectedRevision: current.revision,
          clientRequestId,
          source,
        }, { resolveItem });
      return Promise.resolve({
        content: `${
          params.action === "update" ? "Updated" : "Forgot"
        } ${result.memoryId} (revision ${result.resultingRevision})`,
        details: { ...result },
      });
    },
  });
}

/**
 * The memory operations of one Run over memory.db: the RPC's paths (validation,
 * credential protection, idempotency), provenance pointing at the user message that
 * started the Run, and the workspace scope key of its thread — both fixed once per Run.
 *
 * @module
 */
import {
  type MemoryStore,
  readItemSource,
  recallMemories,
  type StateStore,
} from "@daedalus/storage";
import type { MemoryOperations } from "@daedalus/tools";
import { coded } from "./_coded.ts";

/** What a Run's memory operations are built from. */
export interface MemoryRunFacts {
  /** The user message that started the Run (every write cites it), or null. */
  triggeringItemId: string | null;
  /** The workspace scope key of the Run's thread, or null (no workspace). */
  workspaceKey: string | null;
}

/**
 * The memory operations of a Run.
 *
 * @param store state.db (to resolve provenance items)
 * @param memory memory.db
 * @param run the Run's provenance item and workspace key
 * @returns the operations
 */
export function createMemoryOperations(
  store: StateStore,
  memory: MemoryStore,
  run: MemoryRunFacts,
): MemoryOperations {
  const resolveItem = (itemId: string) => store.read((db) => readItemSource(db, itemId));
  const source = run.triggeringItemId
    ? { type: "session_item" as const, itemId: run.triggeringItemId }
    : undefined;
  return {
    search: coded((query, limit) =>
      recallMemories(memory.database, {
        query,
        workspaceKey: run.workspaceKey,
        maxRecords: limit,
      })
    ),
    save: coded((request) => {
      const scope = request.scope === "workspace" && run.workspaceKey
        ? { type: "workspace" as const, key: run.workspaceKey }
        : { type: "global" as const, key: null };
      return memory.create({
        kind: request.kind,
        scope,
        content: request.content,
        clientRequestId: request.clientRequestId,
        source,
      }, { resolveItem });
    }),
    update: coded((request) => {
      const current = memory.get(request.memoryId, { resolveItem });
      return memory.correct({
        memoryId: request.memoryId,
        expectedRevision: current.revision,
        content: request.content,
        clientRequestId: request.clientRequestId,
        source,
      }, { resolveItem });
    }),
    forget: coded((request) => {
      const current = memory.get(request.memoryId, { resolveItem });
      return memory.forget({
        memoryId: request.memoryId,
        expectedRevision: current.revision,
        clientRequestId: request.clientRequestId,
        source,
      }, { resolveItem });
    }),
  };
}

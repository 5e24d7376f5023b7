/**
 * What background refinement reads from state.db: a thread's completed user and
 * assistant messages after its extraction cursor, oldest first, bounded.
 *
 * @module
 */
import {
  compareExtractionPositions,
  getThread,
  readTurnsNewestFirst,
  type StateStore,
} from "@daedalus/storage";
import type { RefinementItem, RefinementPosition } from "./refinement.ts";

/**
 * Reads completed messages of a thread's default branch after a position. Not the active
 * branch: the extraction cursor is one position per thread ordered by turn ordinal, and
 * a fork's ordinals restart after its fork turn, so following a switch would skip (or
 * read again) messages below the cursor.
 *
 * @param store state.db
 * @param threadId the thread
 * @param after the cursor (null: from the start)
 * @param limits most items and bytes
 * @returns the items, oldest first, each with its position
 */
export function readCompletedItems(
  store: StateStore,
  threadId: string,
  after: RefinementPosition | null,
  limits: { maxItems: number; maxBytes: number },
): RefinementItem[] {
  const turns = [];
  const branchId = store.read((db) => getThread(db, threadId)).thread.defaultBranchId;
  for (let before: number | undefined = undefined;;) {
    const page = store.read((db) =>
      readTurnsNewestFirst(db, { threadId, branchId, beforeOrdinal: before, limit: 100 })
    );
    turns.push(...page);
    const oldest = page.at(-1);
    if (page.length < 100 || !oldest || (after && oldest.ordinal < after.turnOrdinal)) break;
    before = oldest.ordinal;
  }
  turns.reverse();
  const items: RefinementItem[] = [];
  let bytes = 0;
  for (const turn of turns) {
    const runs = [...turn.runs].sort((a, b) =>
      a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)
    );
    for (const run of runs) {
      for (const item of run.items) {
        if (item.kind !== "message" || item.status !== "completed") continue;
        if (item.role !== "user" && item.role !== "assistant") continue;
        const position = {
          turnOrdinal: turn.ordinal,
          runCreatedAt: run.createdAt,
          runId: run.id,
          itemOrdinal: item.ordinal,
          itemId: item.id,
        };
        if (after && compareExtractionPositions(position, after) <= 0) continue;
        bytes += new TextEncoder().encode(item.content).byteLength;
        if (items.length >= limits.maxItems || bytes > limits.maxBytes) return items;
        items.push({
          itemId: item.id,
          turnId: turn.id,
          role: item.role,
          content: item.content,
          position,
        });
      }
    }
  }
  return items;
}

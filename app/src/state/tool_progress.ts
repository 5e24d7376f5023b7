/**
 * How far running tool calls got: the latest `item.progress` of each tool_call item (an MCP
 * tool's progress notifications, journaled by the runtime), forgotten when the item
 * completes. The tool card shows it while the call runs.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { JournalEvent } from "@daedalus/client";
import { onJournalEvent } from "./store.ts";

/** One call's latest report. */
export interface ToolProgressView {
  /** Done so far. */
  progress: number;
  /** The whole, when the tool said. */
  total: number | null;
  /** What it is doing, when it said. */
  message: string | null;
}

/** Most calls remembered (a thread shows a handful at once; old ones are dropped). */
const REMEMBERED_CALLS = 64;

/**
 * The progress map after one event: an `item.progress` sets its item's entry, the
 * item's `item.completed` removes it; anything else leaves it as it is.
 *
 * @param progress the map (not changed)
 * @param event a journal event
 * @returns the same map, or a new one
 */
export function applyProgressEvent(
  progress: ReadonlyMap<string, ToolProgressView>,
  event: JournalEvent,
): ReadonlyMap<string, ToolProgressView> {
  if (event.type === "item.progress" && event.itemId !== null) {
    const { progress: done, total, message } = event.payload as ToolProgressView;
    const next = new Map(progress);
    next.delete(event.itemId);
    next.set(event.itemId, { progress: done, total, message });
    while (next.size > REMEMBERED_CALLS) next.delete(next.keys().next().value!);
    return next;
  }
  if (event.type === "item.completed") {
    const id = (event.payload as { item: { id: string } }).item.id;
    if (!progress.has(id)) return progress;
    const next = new Map(progress);
    next.delete(id);
    return next;
  }
  return progress;
}

/** The latest report of each running call, by tool_call item id. */
export const toolProgress: Signal<ReadonlyMap<string, ToolProgressView>> = signal(new Map());

onJournalEvent((event) => {
  const next = applyProgressEvent(toolProgress.value, event);
  if (next !== toolProgress.value) toolProgress.value = next;
});

/**
 * Whether the docked turn navigator (the rail beside the feed on wide screens) is
 * collapsed, remembered in Web Storage like the sidebar's layout.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { parseStoredRecord } from "./_stored_record.ts";
import { browserStorage } from "./web_storage.ts";

const KEY = "daedalus.turnRail";

/**
 * Reads the remembered state; missing, unreadable or invalid storage means expanded.
 *
 * @param storage where it is kept
 * @returns whether the rail is collapsed
 */
export function loadRailCollapsed(storage: Storage | null): boolean {
  try {
    return parseStoredRecord(storage?.getItem(KEY) ?? null)?.collapsed === true;
  } catch {
    // Reading refused (private mode, a sandboxed frame): expanded for this page.
    return false;
  }
}

/**
 * Remembers the state; a full or disabled storage only loses the memory of it.
 *
 * @param storage where it is kept
 * @param collapsed whether the rail is collapsed
 */
export function saveRailCollapsed(storage: Storage | null, collapsed: boolean): void {
  try {
    storage?.setItem(KEY, JSON.stringify({ collapsed }));
  } catch {
    // Quota or private mode: the state lasts for this page only.
  }
}

/** Whether the docked turn rail is collapsed. */
export const railCollapsed = signal<boolean>(loadRailCollapsed(browserStorage()));

/**
 * Collapses or expands the rail and remembers it.
 *
 * @param collapsed the new state
 */
export function setRailCollapsed(collapsed: boolean): void {
  railCollapsed.value = collapsed;
  saveRailCollapsed(browserStorage(), collapsed);
}

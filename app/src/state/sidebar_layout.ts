/**
 * The sidebar's width and collapsed state, remembered in Web Storage. Widths are kept
 * within 220–520 px whatever the stored value says (the storage is user-editable input).
 *
 * @module
 */
import { signal } from "@preact/signals";
import { parseStoredRecord } from "./_stored_record.ts";
import { browserStorage } from "./web_storage.ts";

/** Narrowest sidebar, in CSS pixels. */
export const SIDEBAR_MIN_WIDTH = 220;
/** Widest sidebar, in CSS pixels. */
export const SIDEBAR_MAX_WIDTH = 520;
/** The width before the user changes it. */
export const SIDEBAR_DEFAULT_WIDTH = 260;

const KEY = "daedalus.sidebar";

/** The remembered layout. */
export interface SidebarLayout {
  width: number;
  collapsed: boolean;
}

/**
 * Keeps a width within the limits; anything not a finite number becomes the default.
 *
 * @param width the asked width
 * @returns the width to use
 */
export function clampWidth(width: unknown): number {
  if (typeof width !== "number" || !Number.isFinite(width)) return SIDEBAR_DEFAULT_WIDTH;
  return Math.round(Math.min(SIDEBAR_MAX_WIDTH, Math.max(SIDEBAR_MIN_WIDTH, width)));
}

/**
 * Reads the layout; missing, unreadable or invalid storage gives the defaults.
 *
 * @param storage where it is kept
 * @returns the layout
 */
export function loadLayout(storage: Storage | null): SidebarLayout {
  try {
    const stored = parseStoredRecord(storage?.getItem(KEY) ?? null);
    return { width: clampWidth(stored?.width), collapsed: stored?.collapsed === true };
  } catch {
    // Reading refused (private mode, a sandboxed frame): the defaults for this page.
    return { width: SIDEBAR_DEFAULT_WIDTH, collapsed: false };
  }
}

/**
 * Remembers the layout; a full or disabled storage only loses the memory of it.
 *
 * @param storage where it is kept
 * @param layout the layout
 */
export function saveLayout(storage: Storage | null, layout: SidebarLayout): void {
  try {
    storage?.setItem(
      KEY,
      JSON.stringify({ width: clampWidth(layout.width), collapsed: layout.collapsed }),
    );
  } catch {
    // Quota or private mode: the layout lasts for this page only.
  }
}

/** The app's sidebar layout. */
export const sidebarLayout = signal<SidebarLayout>(loadLayout(browserStorage()));

/**
 * Changes and remembers the layout.
 *
 * @param change the fields to change
 */
export function updateSidebarLayout(change: Partial<SidebarLayout>): void {
  const next = { ...sidebarLayout.value, ...change };
  next.width = clampWidth(next.width);
  sidebarLayout.value = next;
  saveLayout(browserStorage(), next);
}

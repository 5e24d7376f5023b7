/**
 * Arrow-key movement through a list of focusable rows (ArrowUp/ArrowDown, Home, End),
 * shared by the sidebar, the settings sections, search and the turn navigator; menus
 * (the thread menu, the effort menu) wrap around at the ends.
 *
 * @module
 */

/**
 * Where a key moves focus in a list of rows.
 *
 * @param key `KeyboardEvent.key`
 * @param count how many rows
 * @param current the focused row, or -1 when focus is elsewhere in the list
 * @returns the row to focus, or null when the key does not move focus
 */
export function listKeyTarget(key: string, count: number, current: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return current < 0 ? 0 : Math.min(count - 1, current + 1);
    case "ArrowUp":
      return current < 0 ? count - 1 : Math.max(0, current - 1);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

/**
 * Where a key moves focus in a menu, whose arrows wrap around at the ends.
 *
 * @param key `KeyboardEvent.key`
 * @param count how many items
 * @param current the focused item, or -1 when focus is elsewhere in the menu
 * @returns the item to focus, or null when the key does not move focus
 */
export function menuKeyTarget(key: string, count: number, current: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return (current + 1) % count;
    case "ArrowUp":
      return current < 0 ? count - 1 : (current - 1 + count) % count;
    default:
      return listKeyTarget(key, count, current);
  }
}

/**
 * A keydown handler for a menu element: arrows (wrapping), Home and End move focus between
 * its items, Escape closes it.
 *
 * @param selector each item, e.g. `[role=menuitem]`
 * @param close closes the menu (and gives focus back to its button)
 * @returns the handler to put on the menu
 */
export function moveFocusInMenu(
  selector: string,
  close: () => void,
): (event: KeyboardEvent) => void {
  return (event) => {
    const menu = event.currentTarget as HTMLElement | null;
    const items = [...(menu?.querySelectorAll<HTMLElement>(selector) ?? [])];
    const current = items.indexOf(document.activeElement as HTMLElement);
    const next = menuKeyTarget(event.key, items.length, current);
    if (next !== null) {
      event.preventDefault();
      items[next]?.focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    }
  };
}

/**
 * A keydown handler for a list element that moves focus between its rows' controls.
 * Keys typed into text fields inside the list are left alone.
 *
 * @param selector the focusable control of each row, e.g. `.memory-row-toggle`
 * @returns the handler to put on the list
 */
export function moveFocusInList(selector: string): (event: KeyboardEvent) => void {
  return (event) => {
    const list = event.currentTarget as HTMLElement | null;
    const target = event.target as HTMLElement | null;
    if (!list || target?.closest("input, textarea, select")) return;
    const rows = [...list.querySelectorAll<HTMLElement>(selector)];
    const current = rows.findIndex((row) => row === target || row.contains(target));
    const next = listKeyTarget(event.key, rows.length, current);
    if (next === null) return;
    event.preventDefault();
    rows[next]?.focus();
  };
}

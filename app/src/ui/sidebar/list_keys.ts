/**
 * Arrow-key movement between the sidebar's thread buttons: one tab stop for the list
 * as a whole is not needed (every thread stays a button), but ArrowUp/ArrowDown/Home/
 * End move focus like in a list, across project groups.
 *
 * @module
 */

/**
 * The index focus moves to for a key, or null when the key is not a list key.
 *
 * @param key `KeyboardEvent.key`
 * @param current the focused button's index (-1 when none)
 * @param count how many buttons there are
 * @returns the next index, or null
 */
export function nextListIndex(key: string, current: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return current < 0 ? 0 : Math.min(current + 1, count - 1);
    case "ArrowUp":
      return current < 0 ? count - 1 : Math.max(current - 1, 0);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

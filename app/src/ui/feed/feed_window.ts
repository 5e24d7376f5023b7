/**
 * The windowing math of the virtualized feed: where each row starts (measured heights,
 * estimates for rows never rendered), which rows to render around a scroll position,
 * the row that anchors the view while rows above it change, and what counts as "at the
 * bottom". Pure numbers; the component owns the DOM.
 *
 * @module
 */

/** What the math needs of a row: a stable key and a height guess for before it is measured. */
export interface SizedRow {
  /** Stable across renders (an item id). */
  key: string;
  /** Its height in px until it has been measured. */
  estimate: number;
}

/**
 * The top of every row and, last, the total height: `offsets[i]` is where row `i`
 * starts, `offsets[rows.length]` where the last one ends.
 *
 * @param rows the rows in order
 * @param heights measured heights by key
 * @returns `rows.length + 1` offsets in px
 */
export function rowOffsets(
  rows: readonly SizedRow[],
  heights: ReadonlyMap<string, number>,
): Float64Array {
  const offsets = new Float64Array(rows.length + 1);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    offsets[i + 1] = offsets[i]! + (heights.get(row.key) ?? row.estimate);
  }
  return offsets;
}

/**
 * The row under `y`: the last row that starts at or above it, clamped to the rows.
 *
 * @param offsets from {@linkcode rowOffsets}
 * @param y a position in px from the top of the first row
 * @returns its index (0 when there are no rows)
 */
export function indexAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  if (count <= 0) return 0;
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (offsets[mid]! <= y) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Rows `start` (inclusive) to `end` (exclusive). */
export interface RowRange {
  start: number;
  end: number;
}

/**
 * The rows to render for a viewport at `top`: those it shows plus `overscan` px of rows
 * on each side, so a short scroll finds them already rendered.
 *
 * @param offsets from {@linkcode rowOffsets}
 * @param top the viewport's top in px from the first row
 * @param viewport its height in px
 * @param overscan extra px rendered above and below
 * @returns the range (empty when there are no rows)
 */
export function rangeAround(
  offsets: Float64Array,
  top: number,
  viewport: number,
  overscan: number,
): RowRange {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0 };
  const start = indexAt(offsets, top - overscan);
  const end = Math.min(count, indexAt(offsets, top + viewport + overscan) + 1);
  return { start, end };
}

/**
 * Whether the rendered range shows everything the viewport at `top` sees; when not, the
 * feed renders a new range.
 *
 * @param offsets from {@linkcode rowOffsets}
 * @param range the rendered rows
 * @param top the viewport's top in px from the first row
 * @param viewport its height in px
 */
export function covers(
  offsets: Float64Array,
  range: RowRange,
  top: number,
  viewport: number,
): boolean {
  const count = offsets.length - 1;
  if (count <= 0) return true;
  const startsAbove = range.start === 0 || offsets[range.start]! <= Math.max(0, top);
  const endsBelow = range.end === count || offsets[range.end]! >= top + viewport;
  return startsAbove && endsBelow;
}

/**
 * Whether a scroller is at (or within `slack` px of) its bottom, where the feed follows
 * new content.
 */
export function isAtBottom(
  scrollTop: number,
  clientHeight: number,
  scrollHeight: number,
  slack: number,
): boolean {
  return scrollTop + clientHeight >= scrollHeight - slack;
}

/** A row and how far the viewport's top is below that row's top, in px. */
export interface Anchor {
  key: string;
  delta: number;
}

/**
 * The row at the viewport's top, which keeps its place on screen while rows above it
 * are added or change height.
 *
 * @param offsets from {@linkcode rowOffsets}
 * @param rows the rows
 * @param y the viewport's top in px from the first row
 * @returns the anchor, or null without rows
 */
export function anchorAt(
  offsets: Float64Array,
  rows: readonly SizedRow[],
  y: number,
): Anchor | null {
  if (rows.length === 0) return null;
  const index = indexAt(offsets, y);
  return { key: rows[index]!.key, delta: y - offsets[index]! };
}

/**
 * How many rows came after the one the user last saw at the bottom.
 *
 * @param keys the rows' keys in order
 * @param lastSeen the key of the last row when the user was last at the bottom
 * @returns the count (every row when `lastSeen` is unknown)
 */
export function unseenCount(keys: readonly string[], lastSeen: string | null): number {
  if (lastSeen === null) return keys.length;
  const at = keys.lastIndexOf(lastSeen);
  return at === -1 ? 0 : keys.length - 1 - at;
}

/**
 * The turn to move to from the viewport's top: the next one that starts below it, or
 * the previous one that starts above it (a turn starting right at the top is the
 * current one, not a target).
 *
 * @param turnTops each turn's top in px, ascending
 * @param y the viewport's top in px
 * @param direction 1 for the next turn, -1 for the previous
 * @returns the turn's index, or null when there is none that way
 */
export function adjacentTurn(
  turnTops: readonly number[],
  y: number,
  direction: 1 | -1,
): number | null {
  // one px of slack: a turn scrolled to exactly the top may sit at a fraction above it
  if (direction === 1) {
    const next = turnTops.findIndex((top) => top > y + 1);
    return next === -1 ? null : next;
  }
  const previous = turnTops.findLastIndex((top) => top < y - 1);
  return previous === -1 ? null : previous;
}

/**
 * Telling a horizontal swipe that closes the drawer from a vertical scroll of its list.
 *
 * @module
 */

/** Px a finger must travel left before the drawer closes: shorter moves are taps or jitter. */
export const SWIPE_CLOSE_MIN_PX = 48;
/** How much more horizontal than vertical the move must be: scrolling the list is not a swipe. */
const SWIPE_DIRECTION_RATIO = 1.5;

/**
 * Whether a touch that moved by (dx, dy) px is a swipe to the left that closes the drawer.
 *
 * @param dx horizontal travel, negative to the left
 * @param dy vertical travel
 * @returns true for a clear leftward swipe
 */
export function isCloseSwipe(dx: number, dy: number): boolean {
  if (!Number.isFinite(dx) || !Number.isFinite(dy)) return false;
  return dx <= -SWIPE_CLOSE_MIN_PX && Math.abs(dx) >= SWIPE_DIRECTION_RATIO * Math.abs(dy);
}

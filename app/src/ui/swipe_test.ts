import assert from "node:assert/strict";
import { isCloseSwipe, SWIPE_CLOSE_MIN_PX } from "./swipe.ts";

Deno.test("isCloseSwipe: only a clear leftward move closes the drawer", () => {
  const cases: [dx: number, dy: number, closes: boolean, why: string][] = [
    [-SWIPE_CLOSE_MIN_PX, 0, true, "exactly the minimum to the left"],
    [-200, 40, true, "a long swipe with a little vertical drift"],
    [-SWIPE_CLOSE_MIN_PX + 1, 0, false, "one px short of the minimum"],
    [200, 0, false, "to the right"],
    [0, 0, false, "a tap"],
    [-60, 60, false, "diagonal: as much vertical as horizontal"],
    [-90, 60, true, "exactly 1.5 times more horizontal"],
    [-89, 60, false, "just under 1.5 times more horizontal"],
    [-30, -300, false, "a vertical scroll of the list"],
    [Number.NaN, 0, false, "no horizontal reading"],
    [-100, Number.POSITIVE_INFINITY, false, "an infinite vertical reading"],
  ];
  for (const [dx, dy, closes, why] of cases) {
    assert.equal(
      isCloseSwipe(dx, dy),
      closes,
      `${why}: (${dx}, ${dy}) should ${closes ? "" : "not "}close`,
    );
  }
});

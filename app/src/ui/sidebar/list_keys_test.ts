import assert from "node:assert/strict";
import { nextListIndex } from "./list_keys.ts";

Deno.test("nextListIndex moves within bounds and ignores other keys", () => {
  assert.equal(nextListIndex("ArrowDown", 0, 3), 1);
  assert.equal(nextListIndex("ArrowDown", 2, 3), 2);
  assert.equal(nextListIndex("ArrowUp", 0, 3), 0);
  assert.equal(nextListIndex("ArrowUp", -1, 3), 2);
  assert.equal(nextListIndex("ArrowDown", -1, 3), 0);
  assert.equal(nextListIndex("Home", 2, 3), 0);
  assert.equal(nextListIndex("End", 0, 3), 2);
  assert.equal(nextListIndex("Enter", 0, 3), null);
  assert.equal(nextListIndex("ArrowDown", 0, 0), null);
});

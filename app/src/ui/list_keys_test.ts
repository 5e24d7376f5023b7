import assert from "node:assert/strict";
import { listKeyTarget, menuKeyTarget } from "./list_keys.ts";

Deno.test("list keys: arrows step and stop at the ends; Home and End jump", () => {
  assert.equal(listKeyTarget("ArrowDown", 3, 0), 1);
  assert.equal(listKeyTarget("ArrowDown", 3, 2), 2);
  assert.equal(listKeyTarget("ArrowUp", 3, 0), 0);
  assert.equal(listKeyTarget("ArrowUp", 3, 2), 1);
  assert.equal(listKeyTarget("Home", 3, 2), 0);
  assert.equal(listKeyTarget("End", 3, 0), 2);
});

Deno.test("list keys: from outside the rows, arrows enter at the near end", () => {
  assert.equal(listKeyTarget("ArrowDown", 3, -1), 0);
  assert.equal(listKeyTarget("ArrowUp", 3, -1), 2);
});

Deno.test("list keys: other keys and empty lists do not move focus", () => {
  assert.equal(listKeyTarget("Enter", 3, 1), null);
  assert.equal(listKeyTarget("ArrowDown", 0, -1), null);
});

Deno.test("menu keys: arrows wrap around at the ends; Home and End jump", () => {
  assert.equal(menuKeyTarget("ArrowDown", 3, 1), 2);
  assert.equal(menuKeyTarget("ArrowDown", 3, 2), 0);
  assert.equal(menuKeyTarget("ArrowUp", 3, 0), 2);
  assert.equal(menuKeyTarget("ArrowUp", 3, 2), 1);
  assert.equal(menuKeyTarget("Home", 3, 2), 0);
  assert.equal(menuKeyTarget("End", 3, 0), 2);
  assert.equal(menuKeyTarget("ArrowDown", 3, -1), 0);
  assert.equal(menuKeyTarget("ArrowUp", 3, -1), 2);
  assert.equal(menuKeyTarget("Escape", 3, 0), null);
  assert.equal(menuKeyTarget("ArrowDown", 0, -1), null);
});

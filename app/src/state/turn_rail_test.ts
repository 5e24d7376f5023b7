import assert from "node:assert/strict";
import { loadRailCollapsed, saveRailCollapsed } from "./turn_rail.ts";

Deno.test("turn rail: collapsed state round-trips through Web Storage; junk means expanded", () => {
  sessionStorage.clear();
  assert.equal(loadRailCollapsed(sessionStorage), false, "nothing stored: expanded");
  saveRailCollapsed(sessionStorage, true);
  assert.equal(loadRailCollapsed(sessionStorage), true, "saved collapsed");
  saveRailCollapsed(sessionStorage, false);
  assert.equal(loadRailCollapsed(sessionStorage), false, "saved expanded");
  const junk: [string, string][] = [
    ["{not json", "corrupt JSON"],
    ['{"collapsed":"yes"}', "a string, not true"],
    ["[true]", "an array"],
    ["true", "a bare boolean"],
  ];
  for (const [text, why] of junk) {
    sessionStorage.setItem("daedalus.turnRail", text);
    assert.equal(loadRailCollapsed(sessionStorage), false, `${why} must read as expanded`);
  }
  assert.equal(loadRailCollapsed(null), false, "no storage: expanded");
  saveRailCollapsed(null, true); // no storage: nothing to do, nothing thrown
});

Deno.test("turn rail: a storage that throws is survived both ways", () => {
  const throwing = {
    getItem: () => {
      throw new Error("denied");
    },
    setItem: () => {
      throw new Error("quota");
    },
  } as unknown as Storage;
  assert.equal(loadRailCollapsed(throwing), false);
  saveRailCollapsed(throwing, true);
});

import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/client";
import { applyProgressEvent, type ToolProgressView } from "./tool_progress.ts";

const event = (type: string, itemId: string | null, payload: Record<string, unknown>) =>
  ({ type, itemId, payload }) as unknown as JournalEvent;

Deno.test("the latest report of a call is kept until its item completes", () => {
  let map: ReadonlyMap<string, ToolProgressView> = new Map();
  map = applyProgressEvent(
    map,
    event("item.progress", "a", { progress: 1, total: 3, message: null }),
  );
  map = applyProgressEvent(
    map,
    event("item.progress", "a", { progress: 2, total: 3, message: "two" }),
  );
  assert.deepEqual(map.get("a"), { progress: 2, total: 3, message: "two" });
  const same = applyProgressEvent(map, event("item.delta", "a", { delta: "x" }));
  assert.equal(same, map, "other events leave the map as it is");
  map = applyProgressEvent(map, event("item.completed", "a", { item: { id: "a" } }));
  assert.equal(map.has("a"), false, "forgotten when the call completes");
});

Deno.test("only the most recent 64 calls are remembered", () => {
  let map: ReadonlyMap<string, ToolProgressView> = new Map();
  for (let i = 0; i < 70; i++) {
    map = applyProgressEvent(
      map,
      event("item.progress", `c${i}`, { progress: i, total: null, message: null }),
    );
  }
  assert.equal(map.size, 64);
  assert.equal(map.has("c0"), false);
  assert.equal(map.has("c69"), true);
});

import assert from "node:assert/strict";
import type { Item } from "@daedalus/client";
import { waitsForClient } from "./RunProgress.tsx";

const call = (fields: Partial<Item>): Item => ({
  id: "item_1",
  turnId: "turn_1",
  runId: "run_1",
  ordinal: 1,
  kind: "tool_call",
  role: "assistant",
  status: "running",
  content: "",
  data: {},
  createdAt: "2026-12-02T00:00:00.000Z",
  updatedAt: "2026-12-02T00:00:00.000Z",
  ...fields,
});

Deno.test("a waiting Run waits for the app only while one of its client-side calls runs", () => {
  assert.equal(waitsForClient({ items: [call({ data: { clientTool: true } })] }), true);
  assert.equal(waitsForClient({ items: [call({})] }), false, "a runtime call waits for approval");
  assert.equal(
    waitsForClient({ items: [call({ status: "completed", data: { clientTool: true } })] }),
    false,
    "a client call with its result",
  );
  assert.equal(waitsForClient({ items: [] }), false);
});

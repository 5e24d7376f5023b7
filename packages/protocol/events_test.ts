import assert from "node:assert/strict";
import { EVENT_SCHEMA_VERSION, EVENT_TYPES, EventEnvelope, mirrorScope, newId } from "./mod.ts";

const threadId = newId("thread");
const runId = newId("run");
const turnId = newId("turn");
const itemId = newId("item");

function delta(overrides: Record<string, unknown> = {}) {
  return {
    seq: 101,
    schemaVersion: EVENT_SCHEMA_VERSION,
    type: "item.delta",
    threadId,
    branchId: newId("branch"),
    turnId,
    runId,
    itemId,
    timestamp: "2026-10-01T10:00:00.000Z",
    payload: { delta: "你", turnId, runId, itemId },
    ...overrides,
  };
}

Deno.test("there are 27 event types", () => {
  assert.equal(EVENT_TYPES.length, 27);
});

Deno.test("run.model_fallback names both models, the reason and the failed call", () => {
  const event = {
    ...delta(),
    itemId: null,
    type: "run.model_fallback",
    payload: {
      fromProviderId: "deepseek",
      fromModelId: "deepseek-v4-flash",
      toProviderId: "local",
      toModelId: "qwen3:32b",
      reasonCode: "provider_server",
      callOrdinal: 1,
      turnId,
      runId,
    },
  };
  assert.ok(EventEnvelope.safeParse(event).success, "a complete fallback event is accepted");
  for (const [field, value] of [["reasonCode", "no_such_code"], ["callOrdinal", 0]] as const) {
    const broken = { ...event, payload: { ...event.payload, [field]: value } };
    const result = EventEnvelope.safeParse(broken);
    assert.ok(!result.success, `${field}: ${value} must be refused`);
  }
});

Deno.test("an event whose payload mirrors its scope is accepted", () => {
  assert.ok(EventEnvelope.safeParse(delta()).success);
});

Deno.test("a non-null scope id missing from the payload is refused", () => {
  const result = EventEnvelope.safeParse(delta({ payload: { delta: "x", turnId, runId } }));
  assert.ok(!result.success);
  assert.deepEqual(result.error.issues[0]?.path, ["payload", "itemId"]);
});

Deno.test("a payload id that differs from the envelope is refused", () => {
  const other = newId("run");
  const result = EventEnvelope.safeParse(
    delta({ payload: { delta: "x", turnId, runId: other, itemId } }),
  );
  assert.ok(!result.success);
  assert.match(result.error.issues[0]?.message ?? "", /runId/);
});

Deno.test("a null scope id present in the payload is refused", () => {
  const result = EventEnvelope.safeParse(
    delta({ itemId: null, payload: { delta: "x", turnId, runId, itemId } }),
  );
  assert.ok(!result.success);
  assert.match(result.error.issues[0]?.message ?? "", /absent/);
});

Deno.test("unknown types, seq 0 and wrong schema versions are refused", () => {
  assert.ok(!EventEnvelope.safeParse(delta({ type: "item.exploded" })).success);
  assert.ok(!EventEnvelope.safeParse(delta({ seq: 0 })).success);
  assert.ok(!EventEnvelope.safeParse(delta({ schemaVersion: 99 })).success);
});

Deno.test("mirrorScope sets exactly the non-null scope ids", () => {
  assert.deepEqual(mirrorScope({ turnId, runId, itemId: null }, { delta: "x", itemId: "stale" }), {
    delta: "x",
    turnId,
    runId,
  });
});

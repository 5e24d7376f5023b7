import assert from "node:assert/strict";
import { compactEvent, EventEnvelope, inflateEvent, type JournalEvent } from "./mod.ts";

const traceUrl = new URL("../../protocol/golden-trace.json", import.meta.url);

/** Every event the golden trace's server sends: all event types the runtime produces. */
async function goldenEvents(): Promise<JournalEvent[]> {
  const trace = JSON.parse(await Deno.readTextFile(traceUrl));
  const events: JournalEvent[] = [];
  for (const goldenCase of trace.cases) {
    for (const step of goldenCase.steps) {
      if (step.from === "server" && step.message.method === "event") {
        events.push(EventEnvelope.parse(step.message.params));
      }
    }
  }
  return events;
}

const bytes = (value: unknown) => JSON.stringify(value).length;

Deno.test("every golden event comes back exactly from its compact form, and validates", async () => {
  const events = await goldenEvents();
  assert.ok(events.length > 100, `only ${events.length} golden events`);
  const types = new Set(events.map((event) => event.type));
  for (const type of ["run.state_changed", "item.started", "item.completed", "thread.created"]) {
    assert.ok(types.has(type as JournalEvent["type"]), `no ${type} in the golden trace`);
  }
  for (const event of events) {
    const compact = compactEvent(event);
    const inflated = inflateEvent(JSON.parse(JSON.stringify(compact)));
    assert.deepEqual(inflated, event, `event ${event.seq} (${event.type}) changed`);
    assert.ok(EventEnvelope.safeParse(inflated).success);
  }
});

Deno.test("the compact form leaves out the envelope's copies and nothing else", async () => {
  const events = await goldenEvents();
  const item = events.find((event) => event.type === "item.completed")!;
  const compact = compactEvent(item) as
    & { payload: Record<string, unknown> }
    & Record<
      string,
      unknown
    >;
  assert.equal(compact.itemId, item.itemId, "the envelope keeps its non-null ids");
  for (const key of ["turnId", "runId", "itemId"]) assert.ok(!(key in compact.payload), key);
  const slim = compact.payload.item as Record<string, unknown>;
  for (const key of ["id", "turnId", "runId"]) assert.ok(!(key in slim), `item.${key}`);
  assert.equal(slim.content, (item.payload as { item: { content: string } }).item.content);
  const run = events.find((event) => event.type === "run.settled")!;
  assert.ok(!("itemId" in compactEvent(run)), "a null envelope id is left out");
  // Across the trace the compact events are much smaller.
  const full = events.reduce((sum, event) => sum + bytes(event), 0);
  const small = events.reduce((sum, event) => sum + bytes(compactEvent(event)), 0);
  assert.ok(small < full * 0.85, `compact ${small} B of ${full} B`);
});

Deno.test("inflating a full event changes nothing; a nested id that differs stays", async () => {
  const events = await goldenEvents();
  for (const event of events) assert.deepEqual(inflateEvent(event), event);
  const item = structuredClone(events.find((event) => event.type === "item.started")!);
  const nested = (item.payload as { item: { updatedAt: string } }).item;
  nested.updatedAt = "2020-01-01T00:00:00.000Z";
  const compact = compactEvent(item) as { payload: { item: Record<string, unknown> } };
  assert.equal(compact.payload.item.updatedAt, "2020-01-01T00:00:00.000Z");
  assert.deepEqual(inflateEvent(compact), item);
});

Deno.test("inflateEvent passes non-objects through for the schema to refuse", () => {
  assert.equal(inflateEvent("x"), "x");
  assert.equal(inflateEvent(null), null);
  assert.deepEqual(inflateEvent({ seq: 1 }), { seq: 1 });
});

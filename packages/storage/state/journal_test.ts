import assert from "node:assert/strict";
import { EventEnvelope } from "@daedalus/protocol";
import { JournalError } from "./errors.ts";
import type { EventDraft } from "./journal.ts";
import { StateStore } from "./store.ts";
import { countRows, openTestStore, seedThread, seedTurn } from "./_test_store.ts";
import { readRunScope } from "./run_writes.ts";

function refused(pattern: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof JournalError, `expected JournalError, got ${error}`);
    assert.equal(error.code, "invalid_event");
    assert.match(error.message, pattern);
    return true;
  };
}

Deno.test("the journal refuses what the full envelope schema refuses, naming where", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId);
  const scope = readRunScope(store.db, runId);
  const good: EventDraft = {
    type: "context.compacted",
    threadId: scope.threadId,
    branchId: scope.branchId,
    turnId: scope.turnId,
    runId,
    payload: { revision: 2 },
  };
  const before = countRows(store);
  const cases: Array<[EventDraft, RegExp]> = [
    [{ ...good, type: "run.exploded" as EventDraft["type"] }, /at type: unknown event type/],
    [{ ...good, threadId: "thread_NOT_HEX" }, /at threadId/],
    // A valid id of another kind is still not a thread id.
    [{ ...good, threadId: runId }, /at threadId/],
    [{ ...good, itemId: "item_1" }, /at itemId/],
    [{ ...good, payload: { revision: 0 } }, /at payload\.revision/],
    [{ ...good, payload: {} }, /at payload\.revision/],
  ];
  for (const [draft, pattern] of cases) {
    assert.throws(() => store.write(({ append }) => append(draft)), refused(pattern));
  }
  assert.equal(countRows(store), before, "nothing refused was written");
  const { events } = store.write(({ append }) => append(good));
  assert.ok(EventEnvelope.safeParse(events[0]).success, "what it accepts, the envelope accepts");
});

Deno.test("an event stamped with a time the protocol cannot carry is refused", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await seedThread(fixture);
  // Past year 9999 toISOString gives "+010000-…", which is no wire timestamp.
  const far = StateStore.open(fixture.path, { clock: () => new Date(Date.UTC(10_000, 0, 1)) });
  try {
    assert.throws(
      () => far.write(({ append }) => append({ type: "context.compacted", threadId, payload: {} })),
      refused(/at timestamp/),
    );
  } finally {
    far.close();
  }
});

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { EventDraft } from "./journal.ts";
import { readChainTail } from "./journal_chain.ts";
import { verifyJournal } from "./journal_verify.ts";
import { insertEvent } from "./reads/_fixtures.ts";
import { openStateDatabase } from "./database.ts";
import { openTestStore, seedThread, seedTurn, type TestStore } from "./_test_store.ts";
import { readRunScope } from "./run_writes.ts";

/** A projection-free event of a fresh run, appended as often as a test likes. */
async function compactable(fixture: TestStore): Promise<EventDraft> {
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(fixture.store, threadId);
  const scope = readRunScope(fixture.store.db, runId);
  return {
    type: "context.compacted",
    threadId: scope.threadId,
    branchId: scope.branchId,
    turnId: scope.turnId,
    runId,
    payload: { revision: 2 },
  };
}

function seqs(fixture: TestStore): number[] {
  return fixture.store.db.connection.prepare("SELECT seq FROM events ORDER BY seq").all()
    .map((row) => Number(row.seq));
}

function assertChained(fixture: TestStore, why: string): void {
  const result = verifyJournal(fixture.store.db.connection);
  assert.equal(result.ok, true, `${why}: ${result.failure?.reason} ${result.failure?.message}`);
  const all = seqs(fixture);
  assert.deepEqual(all, all.map((_, i) => i + 1), `${why}: seqs must be contiguous`);
}

const boom = new Error("boom");

Deno.test("a write that fails after its append drops the kept tail: the next append reuses the seq", async () => {
  await using fixture = await openTestStore();
  const draft = await compactable(fixture);
  const [first] = fixture.store.write(({ append }) => append(draft)).events;
  assert.throws(() =>
    fixture.store.write(({ append }) => {
      append(draft);
      append(draft);
      throw boom;
    }), boom);
  const [next] = fixture.store.write(({ append }) => append(draft)).events;
  assert.equal(next!.seq, first!.seq + 1, "the rolled-back seqs are given again");
  assertChained(fixture, "after a rolled-back write");
});

Deno.test("a failed nested write drops the kept tail; the outer write's appends chain on", async () => {
  await using fixture = await openTestStore();
  const draft = await compactable(fixture);
  const { events } = fixture.store.write(({ append }) => {
    append(draft);
    try {
      fixture.store.write(({ append: nested }) => {
        nested(draft);
        throw boom;
      });
    } catch (error) {
      if (error !== boom) throw error;
    }
    append(draft);
  });
  assert.equal(events.length, 2, "only the outer appends are committed");
  assert.equal(events[1]!.seq, events[0]!.seq + 1);
  assertChained(fixture, "after a rolled-back savepoint");
});

Deno.test("a commit by another connection is seen: the next append chains from its row", async () => {
  await using fixture = await openTestStore();
  const draft = await compactable(fixture);
  fixture.store.write(({ append }) => append(draft));
  // Another writer (the home lock forbids it; the kept tail must not rely on that).
  const other = openStateDatabase(fixture.path);
  try {
    other.transaction(() =>
      insertEvent(other, { type: "thread.updated", threadId: draft.threadId!, payload: {} })
    );
  } finally {
    other.close();
  }
  const [next] = fixture.store.write(({ append }) => append(draft)).events;
  assert.equal(next!.seq, readChainTail(fixture.store.db.connection).nextSeq - 1);
  assertChained(fixture, "after another connection's commit");
});

Deno.test("an unchained row written by another connection is chained over from genesis, not forked silently", async () => {
  await using fixture = await openTestStore();
  const draft = await compactable(fixture);
  fixture.store.write(({ append }) => append(draft));
  const raw = new DatabaseSync(fixture.path);
  raw.prepare(`INSERT INTO events (schema_version, event_type, created_at, payload_json)
    VALUES (1, 'thread.updated', '2026-12-01T00:00:00.000Z', '{}')`).run();
  const rawSeq = Number(raw.prepare("SELECT max(seq) AS seq FROM events").get()?.seq);
  raw.close();
  const [next] = fixture.store.write(({ append }) => append(draft)).events;
  assert.equal(next!.seq, rawSeq + 1, "the append goes after the other writer's row");
  const result = verifyJournal(fixture.store.db.connection);
  assert.equal(result.failure?.reason, "chain_missing", "the unchained row is reported");
  assert.equal(result.failure?.seq, rawSeq);
});

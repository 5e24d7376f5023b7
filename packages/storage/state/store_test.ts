import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { StateStore } from "./store.ts";
import { JournalError, StateSchemaIncompatibleError } from "./errors.ts";
import {
  assertValidEvents,
  countRows,
  eventTypes,
  FakeClock,
  openTestStore,
  seedThread,
} from "./_test_store.ts";
import { iterateJournal } from "./journal.ts";
import { readThread } from "./thread_writes.ts";

Deno.test("write commits its events with one timestamp from the clock and returns them", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture, { title: "first" });
  const current = readThread(store.db, threadId);
  const committed = store.write(({ now, append }) => {
    const thread = { ...current, title: "renamed", updatedAt: now };
    append({ type: "thread.renamed", threadId, payload: { thread, titleSource: "user" } });
    append({
      type: "thread.archived",
      threadId,
      payload: { thread: { ...thread, archivedAt: now } },
    });
    return "done";
  });
  assert.equal(committed.result, "done");
  assert.deepEqual(eventTypes(committed.events), ["thread.renamed", "thread.archived"]);
  assertValidEvents(committed.events);
  const [renamed, archived] = committed.events;
  assert.equal(renamed.timestamp, archived.timestamp, "one write has one timestamp");
  // createThread read the clock twice (folder date, then its write); this write is third
  assert.equal(renamed.timestamp, "2026-10-01T10:00:02.000Z", "third clock read");
  assert.deepEqual(
    [...iterateJournal(store.db.connection, renamed.seq - 1)],
    committed.events,
    "the journal holds exactly what write returned",
  );
});

Deno.test("write rolls back every event and projection row when the callback throws", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture, { title: "kept" });
  const before = countRows(store);
  assert.throws(
    () =>
      store.write(({ db, now, append }) => {
        const thread = { ...readThread(db, threadId), title: "lost", updatedAt: now };
        append({ type: "thread.renamed", threadId, payload: { thread, titleSource: "user" } });
        throw new Error("boom");
      }),
    /boom/,
  );
  assert.equal(countRows(store), before, "no event survives the rollback");
  assert.equal(countRows(store, "threads", "title = ?", "kept"), 1, "projection unchanged");
});

Deno.test("an event that breaks the protocol is refused with invalid_event and not written", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const before = countRows(store);
  assert.throws(
    () =>
      store.write(({ append }) => append({ type: "item.delta", threadId, payload: { delta: "" } })),
    (error) => {
      assert.ok(error instanceof JournalError, `expected JournalError, got ${error}`);
      assert.equal(error.code, "invalid_event");
      assert.match(error.message, /item\.delta/);
      return true;
    },
  );
  assert.equal(countRows(store), before);
});

Deno.test("timestamps never go backwards when the clock does", async () => {
  await using fixture = await openTestStore();
  const { store, clock } = fixture;
  const first = await seedThread(fixture, { title: "a" });
  clock.advance(-3_600_000);
  await seedThread(fixture, { title: "b" });
  const stamps = store.read((db) =>
    db.connection.prepare("SELECT created_at FROM events ORDER BY seq").all().map((r) =>
      String(r.created_at)
    )
  );
  assert.equal(stamps.length, 2);
  assert.ok(stamps[1] >= stamps[0], `second event at ${stamps[1]} is before ${stamps[0]}`);
  assert.ok(first.threadId);
});

Deno.test("a second StateStore on the same file sees committed writes", async () => {
  await using fixture = await openTestStore();
  const other = fixture.openAnother(new FakeClock("2026-10-02T00:00:00.000Z"));
  const { threadId } = await seedThread(fixture, { title: "shared" });
  const title = other.read((db) =>
    db.connection.prepare("SELECT title FROM threads WHERE id = ?").get(threadId)?.title
  );
  assert.equal(title, "shared");
});

Deno.test("StateStore.open refuses a file with a drifted schema", async () => {
  await using fixture = await openTestStore();
  fixture.store.close();
  const raw = new DatabaseSync(fixture.path);
  raw.exec("CREATE TABLE stray (x)");
  raw.close();
  assert.throws(() => StateStore.open(fixture.path), StateSchemaIncompatibleError);
});

Deno.test("read holds no write lock: another connection can write during it", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const outcome = store.read(() => {
    const writer = new DatabaseSync(fixture.path);
    try {
      writer.exec("PRAGMA busy_timeout = 0");
      writer.exec("BEGIN IMMEDIATE");
      writer.exec("ROLLBACK");
      return "other connection could begin a write";
    } catch (error) {
      return `other connection was locked out: ${(error as Error).message}`;
    } finally {
      writer.close();
    }
  });
  assert.equal(
    outcome,
    "other connection could begin a write",
    "StateStore.read is documented as a read transaction but begins with BEGIN IMMEDIATE",
  );
});

Deno.test("onCommit reports a nested write's events once, with the outer write's, after COMMIT", async () => {
  await using fixture = await openTestStore();
  const reported: string[][] = [];
  const store = StateStore.open(fixture.path, {
    onCommit: (events) => reported.push(eventTypes(events)),
  });
  try {
    const { threadId } = await seedThread({ ...fixture, store });
    reported.length = 0;
    const current = readThread(store.db, threadId);
    store.write(({ append, now }) => {
      const thread = { ...current, title: "outer", updatedAt: now };
      append({ type: "thread.renamed", threadId, payload: { thread, titleSource: "user" } });
      store.write((inner) => {
        inner.append({
          type: "thread.archived",
          threadId,
          payload: { thread: { ...thread, archivedAt: inner.now } },
        });
      });
      assert.deepEqual(reported, [], "nothing is reported before the outer COMMIT");
      try {
        store.write((inner) => {
          inner.append({
            type: "thread.unarchived",
            threadId,
            payload: { thread: { ...thread, archivedAt: null } },
          });
          throw new Error("undo this one");
        });
      } catch { /* rolled back to its savepoint; the outer write goes on */ }
    });
    assert.deepEqual(reported, [["thread.renamed", "thread.archived"]]);
  } finally {
    store.close();
  }
});

Deno.test("read begins no transaction of its own; a reader that needs a snapshot still gets one", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture, { title: "read" });
  const inside = store.read((db) => ({
    open: db.connection.isTransaction,
    title: db.connection.prepare("SELECT title FROM threads WHERE id = ?").get(threadId)?.title,
  }));
  assert.deepEqual(inside, { open: false, title: "read" }, "a plain read ran in a transaction");
  const snapshot = store.read((db) => db.readTransaction(() => db.connection.isTransaction));
  assert.equal(snapshot, true, "readTransaction no longer opens a snapshot");
});

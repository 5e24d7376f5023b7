import assert from "node:assert/strict";
import { parseResult, Thread } from "@daedalus/protocol";
import {
  at,
  explainQueryPlan,
  fixtureId,
  insertEvent,
  insertThread,
  openTempStateDatabase,
  recordStatements,
} from "./_fixtures.ts";
import { getThread, isThreadUserNamed, listThreads, type ThreadPage } from "./thread_catalog.ts";
import { ReadError } from "./errors.ts";
import { getThreadWithBranch } from "./branches.ts";
import type { StateDatabase } from "../database.ts";

const WORKSPACE = {
  id: fixtureId("workspace", 1),
  name: "notes",
  kind: "managed" as const,
  rootUri: "/home/u/Daedalus/notes",
};

function expectReadError(fn: () => unknown, code: string, field?: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ReadError, `expected a ReadError, got ${String(error)}`);
    assert.equal(error.code, code, `expected code ${code}, got ${error.code}: ${error.message}`);
    if (field !== undefined) assert.equal(error.field, field);
    return true;
  });
}

/** Pages a whole catalog with `limit`, validating every page against the protocol. */
function collectCatalog(db: StateDatabase, limit: number, archived: boolean): string[] {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const page: ThreadPage = listThreads(db, { cursor, limit, archived });
    parseResult("thread.list", page);
    assert.ok(page.threads.length <= limit, "a page is never longer than its limit");
    assert.equal(page.hasMore, page.nextCursor !== null, "hasMore and nextCursor agree");
    ids.push(...page.threads.map((thread) => thread.id));
    if (!page.hasMore) return ids;
    cursor = page.nextCursor;
  }
  throw new Error("catalog paging did not end");
}

Deno.test("getThread returns the thread DTO with the latest seq of the same read", async () => {
  await using temp = await openTempStateDatabase();
  const id = fixtureId("thread", 1);
  insertThread(temp.db, {
    id,
    title: "Plans",
    createdAt: at(0),
    updatedAt: at(30),
    workspace: WORKSPACE,
  });

  assert.deepEqual(getThread(temp.db, id), {
    thread: {
      id,
      title: "Plans",
      defaultBranchId: fixtureId("branch", 1),
      workspace: WORKSPACE,
      createdAt: at(0),
      updatedAt: at(30),
      archivedAt: null,
      activeBranchId: fixtureId("branch", 1),
      source: null,
    },
    snapshotSeq: 0,
  });

  insertEvent(temp.db, { type: "thread.renamed", threadId: id, payload: {} });
  insertEvent(temp.db, { type: "thread.renamed", threadId: id, payload: {} });
  const { thread, snapshotSeq } = getThread(temp.db, id);
  assert.equal(snapshotSeq, 2);
  Thread.parse(thread);
  parseResult("thread.get", getThreadWithBranch(temp.db, id));
  assert.equal(getThreadWithBranch(temp.db, id).branch.id, thread.defaultBranchId);
});

Deno.test("getThread maps an untitled, archived thread without a workspace", async () => {
  await using temp = await openTempStateDatabase();
  const id = fixtureId("thread", 2);
  insertThread(temp.db, { id, archivedAt: at(90) });
  const { thread } = getThread(temp.db, id);
  assert.equal(thread.title, null);
  assert.equal(thread.workspace, null);
  assert.equal(thread.archivedAt, at(90));
  Thread.parse(thread);
});

Deno.test("isThreadUserNamed is true only for a title the user gave", async () => {
  await using temp = await openTempStateDatabase();
  const named = fixtureId("thread", 4);
  const untitled = fixtureId("thread", 5);
  insertThread(temp.db, { id: named, title: "Mine" }); // the fixture's titles are the user's
  insertThread(temp.db, { id: untitled });
  assert.equal(isThreadUserNamed(temp.db, named), true);
  assert.equal(isThreadUserNamed(temp.db, untitled), false);
  temp.db.connection.exec(`UPDATE threads SET title_source = 'auto' WHERE id = '${named}'`);
  assert.equal(isThreadUserNamed(temp.db, named), false, "an automatic title may be renamed");
  assert.equal(isThreadUserNamed(temp.db, fixtureId("thread", 9)), false, "no such thread");
});

Deno.test("getThread refuses unknown and malformed ids with stable codes", async () => {
  await using temp = await openTempStateDatabase();
  expectReadError(() => getThread(temp.db, fixtureId("thread", 9)), "thread_not_found", "threadId");
  expectReadError(() => getThread(temp.db, "thread_nothex"), "invalid_params", "threadId");
  expectReadError(() => getThread(temp.db, fixtureId("branch", 1)), "invalid_params", "threadId");
});

Deno.test("getThread reports a corrupt workspace_json as projection_corrupt", async () => {
  await using temp = await openTempStateDatabase();
  const id = fixtureId("thread", 3);
  insertThread(temp.db, { id });
  temp.db.connection.prepare("UPDATE threads SET workspace_json = '[1]' WHERE id = ?").run(id);
  expectReadError(() => getThread(temp.db, id), "projection_corrupt");
});

Deno.test("listThreads pages newest first, breaks updated_at ties by id, no skips or repeats", async () => {
  await using temp = await openTempStateDatabase();
  // Seven threads, four of them updated at the same instant, inserted out of order.
  const updatedAtByN = new Map([[5, 10], [2, 50], [7, 50], [1, 50], [4, 50], [6, 20], [3, 70]]);
  for (const [n, seconds] of updatedAtByN) {
    insertThread(temp.db, { id: fixtureId("thread", n), updatedAt: at(seconds) });
  }
  const expected = [3, 1, 2, 4, 7, 6, 5].map((n) => fixtureId("thread", n));

  for (const limit of [1, 2, 3, 4, 7, 100]) {
    assert.deepEqual(collectCatalog(temp.db, limit, false), expected, `limit ${limit}`);
  }
  const first = listThreads(temp.db, { limit: 7 });
  assert.equal(first.hasMore, false, "an exactly full last page has no more");
  assert.equal(first.nextCursor, null);
});

Deno.test("listThreads splits active and archived catalogs", async () => {
  await using temp = await openTempStateDatabase();
  insertThread(temp.db, { id: fixtureId("thread", 1), updatedAt: at(10) });
  insertThread(temp.db, { id: fixtureId("thread", 2), updatedAt: at(20), archivedAt: at(21) });
  insertThread(temp.db, { id: fixtureId("thread", 3), updatedAt: at(30) });
  insertThread(temp.db, { id: fixtureId("thread", 4), updatedAt: at(5), archivedAt: at(40) });

  assert.deepEqual(collectCatalog(temp.db, 1, false), [3, 1].map((n) => fixtureId("thread", n)));
  assert.deepEqual(collectCatalog(temp.db, 1, true), [2, 4].map((n) => fixtureId("thread", n)));
  assert.deepEqual(
    listThreads(temp.db).threads.map((t) => t.id),
    listThreads(temp.db, { archived: false }).threads.map((t) => t.id),
    "the active catalog is the default",
  );
});

Deno.test("listThreads stamps snapshotSeq and returns an empty catalog", async () => {
  await using temp = await openTempStateDatabase();
  assert.deepEqual(listThreads(temp.db), {
    threads: [],
    nextCursor: null,
    hasMore: false,
    snapshotSeq: 0,
  });
  insertEvent(temp.db, { type: "thread.renamed", payload: {} });
  assert.equal(listThreads(temp.db, { archived: true }).snapshotSeq, 1);
});

Deno.test("listThreads rejects a cursor from the other catalog, both ways", async () => {
  await using temp = await openTempStateDatabase();
  for (let n = 1; n <= 4; n++) {
    insertThread(temp.db, {
      id: fixtureId("thread", n),
      updatedAt: at(n),
      archivedAt: n % 2 === 0 ? at(100) : null,
    });
  }
  const active = listThreads(temp.db, { limit: 1 });
  const archived = listThreads(temp.db, { limit: 1, archived: true });
  assert.ok(active.nextCursor !== null && archived.nextCursor !== null);

  expectReadError(
    () => listThreads(temp.db, { cursor: active.nextCursor, archived: true }),
    "invalid_cursor",
    "cursor",
  );
  expectReadError(
    () => listThreads(temp.db, { cursor: archived.nextCursor, archived: false }),
    "invalid_cursor",
    "cursor",
  );
  assert.equal(listThreads(temp.db, { cursor: active.nextCursor }).threads.length, 1);
});

Deno.test("listThreads rejects malformed cursors", async () => {
  await using temp = await openTempStateDatabase();
  const encode = (text: string) =>
    btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  const valid = { v: 1, s: "active", u: at(0), i: fixtureId("thread", 1) };
  const malformed = [
    "",
    "not base64!",
    "abcde",
    encode("not json"),
    encode("[1,2]"),
    encode("null"),
    encode(JSON.stringify({ ...valid, v: 2 })),
    encode(JSON.stringify({ ...valid, s: undefined })),
    encode(JSON.stringify({ ...valid, u: "yesterday" })),
    encode(JSON.stringify({ ...valid, i: "thread_1" })),
    encode(JSON.stringify({ ...valid, s: "turns" })),
    "A".repeat(1025),
  ];
  for (const cursor of malformed) {
    expectReadError(() => listThreads(temp.db, { cursor }), "invalid_cursor", "cursor");
  }
  assert.deepEqual(listThreads(temp.db, { cursor: encode(JSON.stringify(valid)) }).threads, []);
});

Deno.test("listThreads enforces limit bounds and defaults to 50", async () => {
  await using temp = await openTempStateDatabase();
  temp.db.transaction(() => {
    for (let n = 1; n <= 101; n++) insertThread(temp.db, { id: fixtureId("thread", n) });
  });
  for (const limit of [0, -1, 101, 1.5, Number.NaN]) {
    expectReadError(() => listThreads(temp.db, { limit }), "invalid_params", "limit");
  }
  const byDefault = listThreads(temp.db);
  assert.equal(byDefault.threads.length, 50);
  assert.equal(byDefault.hasMore, true);
  const largest = listThreads(temp.db, { limit: 100 });
  assert.equal(largest.threads.length, 100);
  assert.equal(largest.hasMore, true);
  const rest = listThreads(temp.db, { limit: 100, cursor: largest.nextCursor });
  assert.deepEqual(rest.threads.map((t) => t.id), [fixtureId("thread", 101)]);
  assert.equal(rest.hasMore, false);
});

Deno.test("listThreads pages through the partial catalog indexes without a sort", async () => {
  await using temp = await openTempStateDatabase();
  for (let n = 1; n <= 3; n++) {
    insertThread(temp.db, { id: fixtureId("thread", n), updatedAt: at(n) });
    insertThread(temp.db, {
      id: fixtureId("thread", 10 + n),
      updatedAt: at(n),
      archivedAt: at(50),
    });
  }
  for (const archived of [false, true]) {
    const index = archived
      ? "threads_archived_catalog_order_idx"
      : "threads_active_catalog_order_idx";
    const recording = recordStatements(temp.db);
    const first = listThreads(recording.db, { limit: 1, archived });
    listThreads(recording.db, { limit: 1, archived, cursor: first.nextCursor });
    const pageQueries = recording.statements.filter((sql) => sql.includes("FROM threads"));
    assert.equal(pageQueries.length, 2, "one catalog query per page");
    for (const sql of pageQueries) {
      const plan = explainQueryPlan(temp.db, sql).join("\n");
      assert.match(plan, new RegExp(`USING INDEX ${index}`), `plan uses ${index}:\n${plan}`);
      assert.doesNotMatch(plan, /TEMP B-TREE/, `plan sorts in a temp b-tree:\n${plan}`);
    }
    const cursorPlan = explainQueryPlan(temp.db, pageQueries[1]).join("\n");
    assert.match(
      cursorPlan,
      /SEARCH threads .*\(updated_at<\?\)/,
      `no index range:\n${cursorPlan}`,
    );
  }
});

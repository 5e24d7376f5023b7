/**
 * Read paths at scale: a catalog page among 100,000 threads and a turn.list page on
 * a thread with 10,000 items. Run with `deno task bench`.
 */
import { listThreads } from "./thread_catalog.ts";
import { listTurns } from "./thread_history.ts";
import {
  at,
  fixtureId,
  insertItem,
  insertRun,
  insertThread,
  insertTurn,
  openTempStateDatabase,
} from "./_fixtures.ts";

const THREADS = 100_000;
const catalog = await openTempStateDatabase();
catalog.db.transaction(() => {
  for (let n = 1; n <= THREADS; n++) {
    insertThread(catalog.db, {
      id: fixtureId("thread", n),
      title: `thread ${n}`,
      updatedAt: at(n % 5000),
      archivedAt: n % 10 === 0 ? at(n) : null,
    });
  }
});
const deepCursor = (() => {
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    cursor = listThreads(catalog.db, { cursor, limit: 100 }).nextCursor;
  }
  return cursor;
})();

Deno.bench("thread.list: first page of 50 among 100,000 threads", { group: "catalog" }, () => {
  listThreads(catalog.db, { limit: 50 });
});
Deno.bench("thread.list: page 101 (cursor) among 100,000 threads", { group: "catalog" }, () => {
  listThreads(catalog.db, { cursor: deepCursor, limit: 50 });
});

// One thread with 200 turns × 50 items = 10,000 items.
const history = await openTempStateDatabase();
const threadId = fixtureId("thread", 1);
history.db.transaction(() => {
  const branchId = insertThread(history.db, { id: threadId, title: "long" });
  let item = 0;
  for (let t = 1; t <= 200; t++) {
    const turnId = fixtureId("turn", t);
    const runId = fixtureId("run", t);
    insertTurn(history.db, { id: turnId, threadId, branchId, ordinal: t });
    insertRun(history.db, { id: runId, turnId });
    for (let i = 1; i <= 50; i++) {
      insertItem(history.db, {
        id: fixtureId("item", ++item),
        turnId,
        runId,
        ordinal: i,
        content: "A line of an answer that is long enough to look like real text. ".repeat(3),
      });
    }
  }
});
Deno.bench("turn.list: page of 50 turns (2,500 items) on a 10,000-item thread", {
  group: "history",
}, () => {
  listTurns(history.db, { threadId, limit: 50 });
});
Deno.bench("turn.list: page of 5 turns (250 items) on a 10,000-item thread", {
  group: "history",
}, () => {
  listTurns(history.db, { threadId, limit: 5 });
});

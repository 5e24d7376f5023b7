import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openStateDatabase } from "./database.ts";
import { createStateSchema, describeStateSchemaDrift, STATE_SCHEMA_VERSION } from "./schema.ts";
import { checkState, repairProjections, snapshot } from "./maintenance.ts";
import { setThreadArchived } from "./thread_writes.ts";
import { clearThreadIndex, fillSearchIndex, isSearchable } from "./search_index.ts";
import { searchMessages } from "./reads/message_search.ts";
import { activateRun, appendItemDelta, settleRun, startItem } from "./run_writes.ts";
import { startTurn } from "./turn_writes.ts";
import { openTestStore, seedThread, TEST_RUN_CONFIG } from "./_test_store.ts";
import { exchange } from "./_search_fixture.ts";

/** The index's rows as (item, role, text), in item order, to compare whole. */
function indexRows(connection: DatabaseSync): string[] {
  return connection.prepare(
    "SELECT item_id, role, content FROM message_search ORDER BY item_id",
  ).all().map((row) => `${row.item_id} ${row.role}: ${row.content}`);
}

function found(connection: { db: Parameters<typeof searchMessages>[0] }, query: string) {
  return searchMessages(connection.db, { query }).results.map((r) => r.itemId);
}

Deno.test("isSearchable keeps finished user and assistant messages with text only", () => {
  const cases: [string, Parameters<typeof isSearchable>[0], boolean][] = [
    ["completed user message", {
      kind: "message",
      role: "user",
      status: "completed",
      content: "hi",
    }, true],
    [
      "completed answer",
      { kind: "message", role: "assistant", status: "completed", content: "hi" },
      true,
    ],
    ["cancelled answer", {
      kind: "message",
      role: "assistant",
      status: "cancelled",
      content: "hal",
    }, true],
    [
      "failed answer",
      { kind: "message", role: "assistant", status: "failed", content: "par" },
      true,
    ],
    [
      "streaming answer",
      { kind: "message", role: "assistant", status: "streaming", content: "p" },
      false,
    ],
    [
      "blank answer",
      { kind: "message", role: "assistant", status: "completed", content: " \n" },
      false,
    ],
    [
      "tool call",
      { kind: "tool_call", role: "assistant", status: "completed", content: "ls" },
      false,
    ],
    [
      "tool result",
      { kind: "tool_result", role: "tool", status: "completed", content: "a" },
      false,
    ],
    ["tool message", { kind: "message", role: "tool", status: "completed", content: "a" }, false],
    ["no role", { kind: "message", role: null, status: "completed", content: "a" }, false],
  ];
  for (const [name, item, expected] of cases) {
    assert.equal(isSearchable(item), expected, `${name}: expected ${expected}`);
  }
});

Deno.test("the index follows the live projection: messages when they finish, never tools or reasoning", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture, { title: "Garden" });
  const turn = exchange(store, threadId, "How do tomatoes grow?", "Tomatoes need sunshine.", {
    reasoning: "thinking about photosynthesis",
    toolText: "grep greenhouse",
  });
  assert.deepEqual(
    new Set(found(store, "tomatoes")),
    new Set([turn.userItemId, turn.assistantItemId]),
    "both messages must be found",
  );
  assert.deepEqual(found(store, "photosynthesis"), [], "reasoning must not be indexed");
  assert.deepEqual(found(store, "greenhouse"), [], "tool calls and results must not be indexed");

  // A streaming answer is not searchable until it completes.
  const { result } = startTurn(store, {
    threadId,
    content: "And cucumbers?",
    providerId: "test-provider",
    modelId: "test-model",
    runConfig: TEST_RUN_CONFIG,
  });
  activateRun(store, result.runId);
  const answer = startItem(store, result.runId, {
    kind: "message",
    role: "assistant",
    status: "streaming",
  }).result;
  appendItemDelta(store, answer.id, "Cucumbers climb trellises");
  assert.deepEqual(found(store, "trellis"), [], "a streaming answer must not be found yet");
  settleRun(store, result.runId, "cancelled", "cancelled");
  assert.deepEqual(found(store, "trellis"), [answer.id], "the cancelled answer's text is kept");
});

Deno.test("an archived thread's messages stay searchable and say so", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture, { title: "Old notes" });
  const turn = exchange(store, threadId, "the lighthouse keeper", "kept the lamp");
  setThreadArchived(store, threadId, true);
  const [hit] = searchMessages(store.db, { query: "lighthouse" }).results;
  assert.equal(hit?.itemId, turn.userItemId);
  assert.equal(hit?.archived, true, "the result must be marked archived");
  assert.equal(hit?.threadTitle, "Old notes");
  setThreadArchived(store, threadId, false);
  assert.equal(searchMessages(store.db, { query: "lighthouse" }).results[0]?.archived, false);
});

Deno.test("check reports a damaged index and repair-projections rebuilds it from the journal", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  exchange(store, threadId, "first question about rivers", "rivers flow downhill");
  exchange(store, threadId, "second question about lakes", "lakes are still");
  const before = indexRows(store.db.connection);
  assert.equal(before.length, 4, `expected 4 index rows, got ${before.join(" | ")}`);
  assert.deepEqual(checkState(store.db).projectionDifferences, []);

  store.db.connection.exec("DELETE FROM message_search");
  assert.deepEqual(found(store, "rivers"), []);
  assert.deepEqual(checkState(store.db).projectionDifferences, ["message_search"]);

  const report = await repairProjections(store.db, `${fixture.dir}/before-repair.db`);
  assert.ok(report.repairedTables.includes("message_search"), `repaired ${report.repairedTables}`);
  assert.deepEqual(indexRows(store.db.connection), before, "the rebuilt index equals the live one");
  assert.equal(found(store, "rivers").length, 2);
  assert.deepEqual(checkState(store.db).projectionDifferences, []);
});

Deno.test("the migration's fill produces exactly what the live projection wrote", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const a = await seedThread(fixture);
  const b = await seedThread(fixture);
  exchange(store, a.threadId, "alpha beta gamma", "delta epsilon", { toolText: "tool words" });
  exchange(store, b.threadId, "你好世界，今天天气很好", "是的，天气不错");
  const connection = store.db.connection;
  const live = snapshot(connection, "message_search");
  store.db.transaction(() => {
    connection.exec("DELETE FROM message_search");
    fillSearchIndex(connection);
  });
  assert.equal(snapshot(connection, "message_search"), live);
  const rowids = (sql: string) => connection.prepare(sql).all().map((r) => Number(r.r));
  assert.deepEqual(
    rowids("SELECT rowid AS r FROM message_search ORDER BY rowid"),
    rowids(`SELECT i.rowid AS r FROM items i JOIN message_search s ON s.item_id = i.id
            ORDER BY i.rowid`),
    "each index row's rowid must be its item's",
  );
});

Deno.test("clearThreadIndex removes one thread's messages and no other's", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const a = await seedThread(fixture);
  const b = await seedThread(fixture);
  exchange(store, a.threadId, "shared word kumquat", "kumquat again");
  const kept = exchange(store, b.threadId, "kumquat in b", "");
  const removed = store.db.transaction(() => clearThreadIndex(store.db.connection, a.threadId));
  assert.equal(removed, 2);
  assert.deepEqual(found(store, "kumquat"), [kept.userItemId]);
  assert.equal(store.db.transaction(() => clearThreadIndex(store.db.connection, a.threadId)), 0);
});

/** A version-7 file with a few items, written the way version 7 stored them. */
function createVersion7(path: string): void {
  const raw = new DatabaseSync(path);
  raw.exec("PRAGMA journal_mode = WAL");
  createStateSchema(raw, 7);
  const now = "2026-11-29T00:00:00.000Z";
  raw.exec(`INSERT INTO threads (id, title, default_branch_id, created_at, updated_at)
              VALUES ('thr_1', 'Before search', 'brn_1', '${now}', '${now}');
            INSERT INTO branches (id, thread_id, created_at, is_default)
              VALUES ('brn_1', 'thr_1', '${now}', 1);
            INSERT INTO turns (id, thread_id, branch_id, ordinal, status, created_at, updated_at)
              VALUES ('trn_1', 'thr_1', 'brn_1', 1, 'completed', '${now}', '${now}');
            INSERT INTO runs (id, turn_id, provider_id, model_id, status, created_at)
              VALUES ('run_1', 'trn_1', 'p', 'm', 'completed', '${now}');`);
  const item = raw.prepare(
    `INSERT INTO items (id, turn_id, run_id, ordinal, kind, role, status, content, created_at,
       updated_at) VALUES (?, 'trn_1', 'run_1', ?, ?, ?, ?, ?, '${now}', '${now}')`,
  );
  item.run("itm_1", 1, "message", "user", "completed", "where is the old harbour?");
  item.run("itm_2", 2, "tool_call", "assistant", "completed", "search harbour maps");
  item.run("itm_3", 3, "tool_result", "tool", "completed", "harbour map found");
  item.run("itm_4", 4, "message", "assistant", "completed", "The harbour is north.");
  item.run("itm_5", 5, "message", "assistant", "streaming", "harbour still typing");
  raw.close();
}

Deno.test("a version-7 file is migrated forward on open and its old messages are searchable at once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "daedalus_search_" });
  try {
    const path = `${dir}/state.db`;
    createVersion7(path);
    const db = openStateDatabase(path);
    try {
      const version = db.connection.prepare("PRAGMA user_version").get()?.user_version;
      assert.equal(version, STATE_SCHEMA_VERSION);
      assert.deepEqual(describeStateSchemaDrift(db.connection, STATE_SCHEMA_VERSION), []);
      assert.deepEqual(indexRows(db.connection), [
        "itm_1 user: where is the old harbour?",
        "itm_4 assistant: The harbour is north.",
      ]);
      const page = searchMessages(db, { query: "harbour" });
      assert.deepEqual(
        page.results.map((r) => `${r.itemId} ${r.threadTitle} ${r.branchId}`).sort(),
        ["itm_1 Before search brn_1", "itm_4 Before search brn_1"],
      );
      assert.equal(page.results.length, 2);
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

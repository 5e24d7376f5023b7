import assert from "node:assert/strict";
import { parseResult, Turn } from "@daedalus/protocol";
import type { StateDatabase } from "../database.ts";
import {
  at,
  explainQueryPlan,
  fixtureId,
  insertBranch,
  insertContextRevision,
  insertEvent,
  insertItem,
  insertModelCall,
  insertRun,
  insertThread,
  insertTurn,
  openTempStateDatabase,
  recordStatements,
} from "./_fixtures.ts";
import { ReadError } from "./errors.ts";
import { listThreads } from "./thread_catalog.ts";
import { listTurns, type TurnPage } from "./thread_history.ts";

const THREAD = fixtureId("thread", 1);
const BRANCH = fixtureId("branch", 1);
const turn = (n: number) => fixtureId("turn", n);
const run = (n: number) => fixtureId("run", n);
const item = (n: number) => fixtureId("item", n);

function expectReadError(fn: () => unknown, code: string, field?: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ReadError, `expected a ReadError, got ${String(error)}`);
    assert.equal(error.code, code, `expected code ${code}, got ${error.code}: ${error.message}`);
    if (field !== undefined) assert.equal(error.field, field);
    return true;
  });
}

function validated(page: TurnPage): TurnPage {
  parseResult("turn.list", page);
  for (const t of page.turns) Turn.parse(t);
  return page;
}

/**
 * Thread 1, default branch: turn 1 has run 3, then runs 2 and 1 (created at the same
 * instant, so the id decides); turn 2 has run 4 with items inserted out of order; turn 3 has
 * no run yet. Turn 4 lives on a second branch.
 */
function seedHistory(db: StateDatabase): void {
  insertThread(db, { id: THREAD });
  insertBranch(db, { id: fixtureId("branch", 2), threadId: THREAD });
  insertTurn(db, { id: turn(1), threadId: THREAD, branchId: BRANCH, ordinal: 1 });
  insertTurn(db, { id: turn(2), threadId: THREAD, branchId: BRANCH, ordinal: 2 });
  insertTurn(db, {
    id: turn(3),
    threadId: THREAD,
    branchId: BRANCH,
    ordinal: 3,
    status: "queued",
  });
  insertTurn(db, { id: turn(4), threadId: THREAD, branchId: fixtureId("branch", 2), ordinal: 1 });

  insertRun(db, { id: run(2), turnId: turn(1), createdAt: at(10), status: "failed" });
  insertRun(db, { id: run(1), turnId: turn(1), createdAt: at(10), reasonCode: null });
  insertRun(db, { id: run(3), turnId: turn(1), createdAt: at(5) });
  insertRun(db, {
    id: run(4),
    turnId: turn(2),
    status: "running",
    startedAt: at(121),
    createdAt: at(120),
  });
  insertRun(db, { id: run(5), turnId: turn(4) });
  db.connection.prepare("UPDATE runs SET reason_code = 'provider_timeout' WHERE id = ?").run(
    run(2),
  );

  insertItem(db, { id: item(1), turnId: turn(1), runId: run(3), ordinal: 1, role: "user" });
  insertItem(db, { id: item(2), turnId: turn(1), runId: run(3), ordinal: 2 });
  insertItem(db, { id: item(3), turnId: turn(1), runId: run(1), ordinal: 1 });
  insertItem(db, {
    id: item(7),
    turnId: turn(2),
    runId: run(4),
    ordinal: 3,
    kind: "tool_result",
    role: "tool",
    data: { toolCallItemId: item(6), ok: true },
  });
  insertItem(db, { id: item(5), turnId: turn(2), runId: run(4), ordinal: 1, role: "user" });
  insertItem(db, {
    id: item(6),
    turnId: turn(2),
    runId: run(4),
    ordinal: 2,
    kind: "tool_call",
    status: "running",
    data: { toolId: "read", arguments: { path: "a.txt" } },
  });

  // run 4: two execution calls and a compression, three context revisions.
  insertModelCall(db, { runId: run(4), callOrdinal: 1 });
  insertModelCall(db, { runId: run(4), callOrdinal: 2, purpose: "compression" });
  insertModelCall(db, { runId: run(4), callOrdinal: 3 });
  for (const revision of [1, 2, 3]) insertContextRevision(db, run(4), revision);
  // run 3: one call, one revision (its initial context, no compaction).
  insertModelCall(db, { runId: run(3), callOrdinal: 1, tokens: 10 });
  insertContextRevision(db, run(3), 1);
}

Deno.test("listTurns returns a branch's turns with runs and items in history order", async () => {
  await using temp = await openTempStateDatabase();
  seedHistory(temp.db);
  insertEvent(temp.db, { type: "thread.renamed", payload: {} });
  const page = validated(listTurns(temp.db, { threadId: THREAD }));

  assert.deepEqual(page.turns.map((t) => [t.id, t.ordinal, t.status]), [
    [turn(1), 1, "completed"],
    [turn(2), 2, "completed"],
    [turn(3), 3, "queued"],
  ]);
  const [first, second, third] = page.turns;
  assert.ok(first && second && third);
  assert.deepEqual(first.runs.map((r) => r.id), [run(3), run(1), run(2)]);
  assert.deepEqual(first.runs.map((r) => r.items.map((i) => i.id)), [
    [item(1), item(2)],
    [item(3)],
    [],
  ]);
  assert.deepEqual(third.runs, [], "a turn without runs has an empty list");
  assert.equal(page.snapshotSeq, 1);
  assert.equal(page.hasMore, false);
  assert.equal(page.nextCursor, null);

  const running = second.runs[0];
  assert.ok(running);
  assert.deepEqual(running.items.map((i) => [i.id, i.ordinal, i.kind]), [
    [item(5), 1, "message"],
    [item(6), 2, "tool_call"],
    [item(7), 3, "tool_result"],
  ]);
  const { items, ...summary } = running;
  assert.deepEqual(summary, {
    id: run(4),
    turnId: turn(2),
    threadId: THREAD,
    branchId: BRANCH,
    providerId: "local",
    modelId: "model-a",
    executionPolicy: "full_access",
    status: "running",
    reasonCode: null,
    failureClass: null,
    modelCalls: 3,
    compactions: 2,
    createdAt: at(120),
    startedAt: at(121),
    settledAt: null,
  });
  assert.deepEqual(items[1]?.data, { toolId: "read", arguments: { path: "a.txt" } });
  assert.deepEqual(
    first.runs.map((r) => [r.modelCalls, r.compactions, r.reasonCode, r.failureClass]),
    [
      [1, 0, null, null],
      [0, 0, null, null],
      [0, 0, "provider_timeout", "retryable"],
    ],
    "the class is derived from the stored reason code",
  );
});

Deno.test("listTurns carries each Run's token use: summed calls, the last step's input and the window", async () => {
  await using temp = await openTempStateDatabase();
  seedHistory(temp.db);
  // run(1): two execution calls and a compaction call; its window frozen at 1,000 tokens
  insertModelCall(temp.db, { runId: run(1), callOrdinal: 1, tokens: 300 });
  insertModelCall(temp.db, { runId: run(1), callOrdinal: 2, tokens: 450 });
  insertModelCall(temp.db, { runId: run(1), callOrdinal: 3, tokens: 40, purpose: "compression" });
  temp.db.connection.prepare("INSERT INTO run_configs (run_id, config_json) VALUES (?, ?)")
    .run(run(1), JSON.stringify({ contextWindow: 1000 }));
  // run(3) (seeded): one call of 10 tokens, no frozen config (an older Run)
  const page = validated(listTurns(temp.db, { threadId: THREAD }));
  const runs = new Map(page.turns.flatMap((t) => t.runs).map((r) => [r.id, r]));
  assert.deepEqual(runs.get(run(1))?.usage, {
    inputTokens: 790,
    cachedInputTokens: null,
    outputTokens: 0,
    reasoningOutputTokens: null,
    reportedCalls: 3,
    lastStepInputTokens: 450,
    contextWindow: 1000,
  }, "the last step is the last execution call, not the compaction");
  assert.equal(runs.get(run(3))?.usage?.contextWindow, null, "no frozen window: unknown");
  assert.equal(runs.get(run(3))?.usage?.lastStepInputTokens, 10);
  assert.equal(runs.get(run(2))?.usage, undefined, "a Run without reported usage has none");
});

Deno.test("listTurns reads a named branch and refuses branches of other threads", async () => {
  await using temp = await openTempStateDatabase();
  seedHistory(temp.db);
  insertThread(temp.db, { id: fixtureId("thread", 9) });

  const other = validated(
    listTurns(temp.db, { threadId: THREAD, branchId: fixtureId("branch", 2) }),
  );
  assert.deepEqual(other.turns.map((t) => [t.id, t.branchId]), [[turn(4), fixtureId("branch", 2)]]);
  assert.equal(other.turns[0]?.runs[0]?.branchId, fixtureId("branch", 2));
  assert.deepEqual(
    listTurns(temp.db, { threadId: THREAD, branchId: BRANCH }).turns.map((t) => t.id),
    [turn(1), turn(2), turn(3)],
  );

  expectReadError(
    () => listTurns(temp.db, { threadId: THREAD, branchId: fixtureId("branch", 9) }),
    "branch_not_found",
    "branchId",
  );
  expectReadError(
    () => listTurns(temp.db, { threadId: fixtureId("thread", 9), branchId: BRANCH }),
    "branch_not_found",
    "branchId",
  );
  assert.deepEqual(listTurns(temp.db, { threadId: fixtureId("thread", 9) }).turns, []);
  expectReadError(
    () => listTurns(temp.db, { threadId: fixtureId("thread", 8) }),
    "thread_not_found",
    "threadId",
  );
  expectReadError(() => listTurns(temp.db, { threadId: "thread" }), "invalid_params", "threadId");
  expectReadError(
    () => listTurns(temp.db, { threadId: THREAD, branchId: THREAD }),
    "invalid_params",
    "branchId",
  );
});

Deno.test("listTurns pages by ordinal with cursors bound to thread and branch", async () => {
  await using temp = await openTempStateDatabase();
  insertThread(temp.db, { id: THREAD });
  insertThread(temp.db, { id: fixtureId("thread", 2) });
  insertBranch(temp.db, { id: fixtureId("branch", 3), threadId: THREAD });
  for (let n = 1; n <= 5; n++) {
    insertTurn(temp.db, { id: turn(n), threadId: THREAD, branchId: BRANCH, ordinal: n });
    insertTurn(temp.db, {
      id: turn(10 + n),
      threadId: THREAD,
      branchId: fixtureId("branch", 3),
      ordinal: n,
    });
  }

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: TurnPage = validated(listTurns(temp.db, { threadId: THREAD, cursor, limit: 2 }));
    assert.equal(page.hasMore, page.nextCursor !== null);
    seen.push(...page.turns.map((t) => t.id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== null && pages < 10);
  assert.equal(pages, 3);
  assert.deepEqual(seen, [1, 2, 3, 4, 5].map(turn));

  const firstPage = listTurns(temp.db, { threadId: THREAD, limit: 2 });
  const next = firstPage.nextCursor;
  assert.ok(next !== null);
  expectReadError(
    () => listTurns(temp.db, { threadId: THREAD, branchId: fixtureId("branch", 3), cursor: next }),
    "invalid_cursor",
    "cursor",
  );
  insertTurn(temp.db, {
    id: turn(30),
    threadId: fixtureId("thread", 2),
    branchId: fixtureId("branch", 2),
    ordinal: 1,
  });
  expectReadError(
    () => listTurns(temp.db, { threadId: fixtureId("thread", 2), cursor: next }),
    "invalid_cursor",
    "cursor",
  );
  const catalogCursor = listThreads(temp.db, { limit: 1 }).nextCursor;
  assert.ok(catalogCursor !== null);
  expectReadError(
    () => listTurns(temp.db, { threadId: THREAD, cursor: catalogCursor }),
    "invalid_cursor",
    "cursor",
  );
  expectReadError(
    () => listTurns(temp.db, { threadId: THREAD, cursor: "%%%" }),
    "invalid_cursor",
    "cursor",
  );
});

Deno.test("listTurns pages backward from the newest turn, each page in ordinal order", async () => {
  await using temp = await openTempStateDatabase();
  insertThread(temp.db, { id: THREAD });
  for (let n = 1; n <= 5; n++) {
    insertTurn(temp.db, { id: turn(n), threadId: THREAD, branchId: BRANCH, ordinal: n });
  }
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page: TurnPage = validated(
      listTurns(temp.db, { threadId: THREAD, cursor, limit: 2, direction: "backward" }),
    );
    assert.equal(page.hasMore, page.nextCursor !== null);
    pages.push(page.turns.map((t) => t.id));
    cursor = page.nextCursor;
  } while (cursor !== null && pages.length < 10);
  assert.deepEqual(pages, [[turn(4), turn(5)], [turn(2), turn(3)], [turn(1)]]);

  // a cursor pages only the direction that issued it
  const forward = listTurns(temp.db, { threadId: THREAD, limit: 2 }).nextCursor;
  const backward = listTurns(temp.db, { threadId: THREAD, limit: 2, direction: "backward" })
    .nextCursor;
  assert.ok(forward !== null && backward !== null);
  expectReadError(
    () => listTurns(temp.db, { threadId: THREAD, cursor: forward, direction: "backward" }),
    "invalid_cursor",
    "cursor",
  );
  expectReadError(
    () => listTurns(temp.db, { threadId: THREAD, cursor: backward }),
    "invalid_cursor",
    "cursor",
  );
});

Deno.test("listTurns enforces limit bounds and defaults to 50", async () => {
  await using temp = await openTempStateDatabase();
  insertThread(temp.db, { id: THREAD });
  temp.db.transaction(() => {
    for (let n = 1; n <= 51; n++) {
      insertTurn(temp.db, { id: turn(n), threadId: THREAD, branchId: BRANCH, ordinal: n });
    }
  });
  for (const limit of [0, 101, 2.5]) {
    expectReadError(
      () => listTurns(temp.db, { threadId: THREAD, limit }),
      "invalid_params",
      "limit",
    );
  }
  const page = listTurns(temp.db, { threadId: THREAD });
  assert.equal(page.turns.length, 50);
  assert.equal(page.hasMore, true);
  assert.equal(listTurns(temp.db, { threadId: THREAD, limit: 100 }).turns.length, 51);
});

Deno.test("listTurns prepares the same few statements for a small and a large page", async () => {
  await using temp = await openTempStateDatabase();
  insertThread(temp.db, { id: THREAD });
  insertThread(temp.db, { id: fixtureId("thread", 2) });
  const small = fixtureId("thread", 2);
  insertTurn(temp.db, {
    id: turn(900),
    threadId: small,
    branchId: fixtureId("branch", 2),
    ordinal: 1,
  });
  insertRun(temp.db, { id: run(900), turnId: turn(900) });
  insertItem(temp.db, { id: item(900), turnId: turn(900), runId: run(900), ordinal: 1 });
  temp.db.transaction(() => {
    for (let t = 1; t <= 20; t++) {
      insertTurn(temp.db, { id: turn(t), threadId: THREAD, branchId: BRANCH, ordinal: t });
      for (let r = 1; r <= 3; r++) {
        const runN = t * 10 + r;
        insertRun(temp.db, { id: run(runN), turnId: turn(t), createdAt: at(r) });
        for (let i = 1; i <= 5; i++) {
          insertItem(temp.db, {
            id: item(runN * 10 + i),
            turnId: turn(t),
            runId: run(runN),
            ordinal: i,
          });
        }
      }
    }
  });

  const statementsFor = (threadId: string) => {
    const recording = recordStatements(temp.db);
    const page = listTurns(recording.db, { threadId });
    return { count: recording.statements.length, page };
  };
  const one = statementsFor(small);
  const many = statementsFor(THREAD);
  assert.equal(many.page.turns.flatMap((t) => t.runs).flatMap((r) => r.items).length, 300);
  assert.equal(many.count, one.count, "statements grow with the page's contents");
  // The thread, its lineage (one per branch), the turns (one per branch), their tree
  // places, runs, items, streamed text and the snapshot seq.
  assert.ok(many.count <= 8, `expected at most 8 statements per page, got ${many.count}`);
});

Deno.test("listTurns reports a row outside the protocol as projection_corrupt", async () => {
  await using temp = await openTempStateDatabase();
  seedHistory(temp.db);
  temp.db.connection.prepare("UPDATE items SET status = 'lost' WHERE id = ?").run(item(6));
  expectReadError(() => listTurns(temp.db, { threadId: THREAD }), "projection_corrupt");
  temp.db.connection.prepare("UPDATE items SET status = 'running', data_json = '[]' WHERE id = ?")
    .run(item(6));
  expectReadError(() => listTurns(temp.db, { threadId: THREAD }), "projection_corrupt");
});

Deno.test("listTurns reads runs and items through their history indexes without a sort", async () => {
  await using temp = await openTempStateDatabase();
  seedHistory(temp.db);
  const recording = recordStatements(temp.db);
  listTurns(recording.db, { threadId: THREAD });
  const expectations: [RegExp, string][] = [
    [/FROM turns WHERE/, "sqlite_autoindex_turns_2 (branch_id=? AND ordinal>? AND ordinal<?)"],
    [/FROM runs AS r/, "runs_turn_history_idx (turn_id=?)"],
    [/FROM items/, "sqlite_autoindex_items_2 (run_id=?)"],
  ];
  for (const [pattern, index] of expectations) {
    const sql = recording.statements.find((statement) => pattern.test(statement));
    assert.ok(sql !== undefined, `no statement matches ${pattern}`);
    const plan = explainQueryPlan(temp.db, sql).join("\n");
    assert.ok(plan.includes(`USING INDEX ${index}`), `expected ${index} in:\n${plan}`);
    assert.doesNotMatch(plan, /TEMP B-TREE/, `plan sorts in a temp b-tree:\n${plan}`);
  }
});

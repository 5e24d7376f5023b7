import assert from "node:assert/strict";
import { newId, type ProcessRecord } from "@daedalus/protocol";
import { deleteThread, isThreadDeleted, THREAD_ERASERS } from "./thread_delete.ts";
import { ERASED_PAYLOAD_JSON, isErasedPayload } from "./erased_payload.ts";
import { verifyChainSegment, verifyJournal } from "./journal_verify.ts";
import { checkState, repairProjections } from "./maintenance.ts";
import { PROJECTION_TABLES } from "./projections.ts";
import { iterateJournal } from "./journal.ts";
import { exportThreadChunks, JournalExportError } from "./journal_export.ts";
import { setThreadArchived } from "./thread_writes.ts";
import { activateRun, settleRun, settleToolCall, startItem } from "./run_writes.ts";
import { recordModelInput, recordModelResponse, recordProcess } from "./run_facts.ts";
import { requestApproval, resolveApproval } from "./approval_writes.ts";
import { readEventsForThread, replayEvents } from "./reads/event_replay.ts";
import { readReferencedAttachmentPaths } from "./reads/attachment_refs.ts";
import {
  countRows,
  openTestStore,
  seedThread,
  seedTurn,
  storeErrorCode,
  testRunConfig,
  type TestStore,
} from "./_test_store.ts";

const SECRET = "the-thread-secret-7f3a";
const SHARED_ATTACHMENT = "/home/.daedalus/attachments/" + "a".repeat(64) + ".txt";
const OWN_ATTACHMENT = "/home/.daedalus/attachments/" + "b".repeat(64) + ".txt";

/** A skills part only the doomed thread's first Run carries, later used by the other thread. */
const SHARED_CONFIG = testRunConfig({
  skills: [{ name: "shared-skill", description: "d", location: "/s/SKILL.md" }],
});
/** A part only the doomed thread ever refers to. */
const OWN_CONFIG = testRunConfig({
  skills: [{ name: "own-skill", description: "d", location: "/o/SKILL.md" }],
});

function attachment(path: string) {
  return { kind: "text" as const, path, mimeType: "text/plain", size: 3, sha256: "c".repeat(64) };
}

/** A thread with everything a Run leaves behind: items, a tool call with a file change and
 * a process, an approval, model calls and usage, two RunConfigs (one part shared). */
async function fullThread(
  fixture: TestStore,
  text: string,
  attachments = [SHARED_ATTACHMENT, OWN_ATTACHMENT],
) {
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId, {
    content: `${text} question`,
    runConfig: SHARED_CONFIG,
    attachments: attachments.map(attachment),
  });
  activateRun(store, runId);
  recordModelInput(store, runId, {
    callOrdinal: 1,
    stepOrdinal: 1,
    purpose: "execution",
    contextRevision: { revision: 1, note: text },
    stepInput: { revision: 1 },
  });
  recordModelResponse(store, runId, {
    callOrdinal: 1,
    outcome: "completed",
    usage: {
      inputTokens: 10,
      cachedInputTokens: null,
      outputTokens: 5,
      reasoningOutputTokens: null,
      totalTokens: 15,
    },
    responseModelId: null,
    requestId: null,
    activityDate: "2026-10-01",
  });
  const call = startItem(store, runId, {
    kind: "tool_call",
    role: "assistant",
    status: "running",
    data: { toolId: "process_start", callId: "c1", arguments: { command: text } },
  }).result;
  const approval = requestApproval(store, {
    runId,
    toolCallItemId: call.id,
    toolId: "process_start",
    summary: `Run ${text}`,
    target: text,
    risk: "process",
    reasonCode: "permission_ask",
  }).result;
  resolveApproval(store, { approvalId: approval.approvalId, decision: "allow_once" });
  const process: ProcessRecord = {
    processId: newId("process"),
    threadId,
    runId,
    itemId: call.id,
    command: `echo ${text}`,
    cwd: fixture.projectDir,
    state: "running",
    pid: 4242,
    exitCode: null,
    errorCode: null,
    background: false,
    pty: false,
    startedAt: fixture.clock.peek(),
    finishedAt: null,
  };
  settleToolCall(
    store,
    call.id,
    { status: "completed", data: {} },
    { status: "completed", content: `${text} output`, data: {} },
    (context, scope) => {
      context.append({
        type: "file.change_recorded",
        ...scope,
        itemId: call.id,
        payload: {
          toolCallItemId: call.id,
          path: "notes.md",
          operation: "write",
          additions: 1,
          deletions: 0,
        },
      });
      context.append({ type: "process.recorded", ...scope, payload: { process } });
    },
  );
  recordProcess(store, {
    ...process,
    state: "exited",
    exitCode: 0,
    finishedAt: "2026-10-01T11:00:00.000Z",
  });
  startItem(store, runId, {
    kind: "message",
    role: "assistant",
    status: "completed",
    content: `${text} answer`,
  });
  settleRun(store, runId, "completed", null, null);
  return { threadId, runId };
}

/** Rows of every projection table that belong to the thread, by table. */
function threadRows(fixture: TestStore, threadId: string): Record<string, number> {
  const c = fixture.store.db.connection;
  const runs = `(SELECT r.id FROM runs r JOIN turns t ON t.id = r.turn_id WHERE t.thread_id = ?1)`;
  const items =
    `(SELECT i.id FROM items i JOIN turns t ON t.id = i.turn_id WHERE t.thread_id = ?1)`;
  const where: Record<string, string> = {
    approvals: "thread_id = ?1",
    file_changes: `tool_call_item_id IN ${items}`,
    model_usages: "thread_id = ?1",
    model_calls: `run_id IN ${runs}`,
    process_sessions: `run_id IN ${runs}`,
    context_revisions: `run_id IN ${runs}`,
    run_configs: `run_id IN ${runs}`,
    run_config_parts: `hash IN (SELECT json_extract(config_json, '$.parts.skills')
      FROM run_configs WHERE run_id IN ${runs})`,
    items: `turn_id IN (SELECT id FROM turns WHERE thread_id = ?1)`,
    runs: `turn_id IN (SELECT id FROM turns WHERE thread_id = ?1)`,
    turns: "thread_id = ?1",
    branches: "thread_id = ?1",
    threads: "id = ?1",
    message_search: "thread_id = ?1",
  };
  assert.deepEqual(Object.keys(where).sort(), [...PROJECTION_TABLES].sort(), "a table is missed");
  const out: Record<string, number> = {};
  for (const [table, condition] of Object.entries(where)) {
    const sql = `SELECT count(*) AS n FROM ${table} WHERE ${condition}`;
    out[table] = Number(c.prepare(sql).get(...(sql.includes("?1") ? [threadId] : []))?.n);
  }
  return out;
}

function readRowPayload(fixture: TestStore, seq: number): string {
  const row = fixture.store.db.connection.prepare("SELECT payload_json FROM events WHERE seq = ?")
    .get(seq);
  return String(row?.payload_json);
}

function allZero(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(counts).map((k) => [k, 0]));
}

/** Every stored text of state.db that mentions `needle` (tables, not free pages). */
function mentions(fixture: TestStore, needle: string): string[] {
  const c = fixture.store.db.connection;
  const found: string[] = [];
  for (const table of ["events", ...PROJECTION_TABLES]) {
    const columns = c.prepare(`SELECT name FROM pragma_table_info(?)`).all(table)
      .map((r) => String(r.name));
    for (const column of columns) {
      const n = Number(
        c.prepare(`SELECT count(*) AS n FROM ${table} WHERE CAST("${column}" AS TEXT) LIKE ?`)
          .get(`%${needle}%`)?.n,
      );
      if (n > 0) found.push(`${table}.${column}`);
    }
  }
  return found;
}

Deno.test("deleting a thread erases its projections and payloads, and only its", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const doomed = await fullThread(fixture, SECRET);
  // The other thread refers to the shared part the doomed one's event carried.
  const kept = await fullThread(fixture, "keeper", [SHARED_ATTACHMENT]);
  const own = seedTurn(store, doomed.threadId, { runConfig: OWN_CONFIG, content: SECRET });
  settleRun(store, own.runId, "cancelled", "cancelled", null);
  const keptBefore = threadRows(fixture, kept.threadId);
  const keptEvents = countRows(store, "events", "thread_id = ?", kept.threadId);
  // A head the user kept before the deletion (here one of the doomed thread's own rows).
  const keptHead = verifyJournal(store.db.connection).head!;
  const doomedEvents = countRows(store, "events", "thread_id = ?", doomed.threadId);
  assert.notDeepEqual(threadRows(fixture, doomed.threadId), allZero(keptBefore));

  const { result, events } = deleteThread(store, {
    threadId: doomed.threadId,
    clientRequestId: "delete-1",
  });

  assert.equal(result.deleted, true);
  assert.equal(result.erasedEvents, doomedEvents, "every row of the thread is erased");
  assert.deepEqual(result.files.attachmentPaths, [OWN_ATTACHMENT], "the shared one stays");
  assert.deepEqual(events.map((e) => e.type), ["thread.deleted"]);
  assert.equal(events[0].threadId, doomed.threadId);
  assert.deepEqual(
    threadRows(fixture, doomed.threadId),
    allZero(keptBefore),
    "a projection row of the deleted thread is left",
  );
  assert.deepEqual(threadRows(fixture, kept.threadId), keptBefore, "the other thread changed");
  assert.equal(countRows(store, "events", "thread_id = ?", kept.threadId), keptEvents);
  assert.deepEqual(mentions(fixture, SECRET), [], "the thread's text is still readable");
  assert.ok(
    mentions(fixture, "keeper question").length > 0,
    "the other thread's text must stay",
  );
  assert.equal(
    countRows(
      store,
      "events",
      "thread_id = ? AND payload_json = ?",
      doomed.threadId,
      ERASED_PAYLOAD_JSON,
    ),
    doomedEvents,
  );
  // The shared part moved to the deletion event; the part only it used is gone.
  const carried = (events[0].payload as { runConfigParts?: { hash: string }[] }).runConfigParts;
  assert.deepEqual(
    carried?.map((p) => p.hash).sort(),
    Object.values(SHARED_CONFIG.parts).sort(),
    "the deletion must carry on every part the other thread still uses",
  );
  assert.equal(
    countRows(store, "run_config_parts", "hash = ?", OWN_CONFIG.parts.skills),
    0,
    "the part only the deleted thread used must go",
  );
  assert.equal(isThreadDeleted(store.db, doomed.threadId), true);
  assert.equal(isThreadDeleted(store.db, kept.threadId), false);
  assert.deepEqual([...readReferencedAttachmentPaths(store.db)], [SHARED_ATTACHMENT]);
  assert.equal(THREAD_ERASERS.length >= 1, true);

  const verified = verifyJournal(store.db.connection);
  assert.equal(verified.ok, true, `the chain fails after a deletion: ${verified.failure?.message}`);
  const withHead = verifyJournal(store.db.connection, keptHead);
  assert.equal(withHead.ok, true, `a head kept before the deletion: ${withHead.failure?.message}`);
  assert.equal(
    readRowPayload(fixture, keptHead.seq),
    ERASED_PAYLOAD_JSON,
    "the kept head is an erased row of the deleted thread",
  );
  const check = checkState(store.db);
  assert.deepEqual(
    [check.ok, check.journal, check.projectionDifferences],
    [true, [], []],
    "state check after a deletion",
  );
});

Deno.test("reads of the journal skip the erased rows", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const doomed = await fullThread(fixture, SECRET);
  const kept = await seedThread(fixture);
  deleteThread(store, { threadId: doomed.threadId, clientRequestId: "delete-1" });
  for (const event of iterateJournal(store.db.connection)) {
    assert.ok(
      event.threadId !== doomed.threadId || event.type === "thread.deleted",
      `iterateJournal yields erased seq ${event.seq}`,
    );
  }
  const page = replayEvents(store.db, { afterSeq: 0, limit: 1000 });
  assert.deepEqual(
    page.events.filter((e) => e.threadId === doomed.threadId).map((e) => e.type),
    ["thread.deleted"],
  );
  assert.ok(page.events.some((e) => e.threadId === kept.threadId));
  assert.equal(page.hasMore, false);
  // A small page still reaches the end across the erased rows.
  assert.deepEqual(
    page.erasedSeqs,
    store.db.connection.prepare("SELECT seq FROM events WHERE payload_json = ? ORDER BY seq")
      .all(ERASED_PAYLOAD_JSON).map((row) => Number(row.seq)),
    "the replay must name every erased seq",
  );
  let after = 0;
  const seen: number[] = [];
  for (let pages = 0; pages < 1000; pages++) {
    const small = replayEvents(store.db, { afterSeq: after, limit: 2 });
    seen.push(...small.events.map((e) => e.seq), ...small.erasedSeqs ?? []);
    after = small.nextAfterSeq;
    if (!small.hasMore) break;
  }
  assert.deepEqual(
    seen.sort((a, b) => a - b),
    Array.from({ length: countRows(store) }, (_, i) => i + 1),
    "paging must account for every seq once",
  );
  const scoped = readEventsForThread(store.db, doomed.threadId, { afterSeq: 0 });
  assert.deepEqual(scoped.events.map((e) => e.type), ["thread.deleted"]);
});

Deno.test("repairing the projections after a deletion rebuilds nothing of the thread", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const doomed = await fullThread(fixture, SECRET);
  const kept = await fullThread(fixture, "keeper");
  deleteThread(store, { threadId: doomed.threadId, clientRequestId: "delete-1" });
  const keptBefore = threadRows(fixture, kept.threadId);
  const report = await repairProjections(store.db, `${fixture.dir}/before-repair.db`);
  assert.deepEqual(report.repairedTables, [], "a rebuild differs from the live projections");
  assert.deepEqual(threadRows(fixture, doomed.threadId), allZero(keptBefore));
  assert.deepEqual(threadRows(fixture, kept.threadId), keptBefore);
  // The other thread's Run still resolves its shared part after the rebuild.
  const parts = countRows(store, "run_config_parts", "hash = ?", SHARED_CONFIG.parts.skills);
  assert.equal(parts, 1, "the shared part must be rebuilt from the deletion event");
  assert.equal(checkState(store.db).ok, true);
});

Deno.test("deleting the other thread too keeps the carried part consistent", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const first = await fullThread(fixture, SECRET);
  const second = await fullThread(fixture, "keeper");
  deleteThread(store, { threadId: first.threadId, clientRequestId: "delete-1" });
  deleteThread(store, { threadId: second.threadId, clientRequestId: "delete-2" });
  assert.equal(countRows(store, "threads"), 0);
  const check = checkState(store.db);
  assert.deepEqual([check.ok, check.projectionDifferences, check.chain.ok], [true, [], true]);
  const report = await repairProjections(store.db, `${fixture.dir}/before-repair.db`);
  assert.deepEqual(report.repairedTables, []);
});

Deno.test("a retry returns the first result; other requests are refused", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const doomed = await fullThread(fixture, SECRET);
  const other = await seedThread(fixture);
  const first = deleteThread(store, { threadId: doomed.threadId, clientRequestId: "delete-1" });
  const seqBefore = countRows(store);
  const retry = deleteThread(store, { threadId: doomed.threadId, clientRequestId: "delete-1" });
  assert.deepEqual(retry.events, [], "a retry writes nothing");
  assert.deepEqual(
    [retry.result.deleted, retry.result.deletedAt, retry.result.erasedEvents],
    [false, first.result.deletedAt, first.result.erasedEvents],
  );
  assert.equal(countRows(store), seqBefore);
  assert.throws(
    () => deleteThread(store, { threadId: doomed.threadId, clientRequestId: "delete-2" }),
    storeErrorCode("thread_not_found"),
  );
  // The clientRequestId is checked against the thread's own deletion only.
  assert.equal(
    deleteThread(store, { threadId: other.threadId, clientRequestId: "delete-1" }).result.deleted,
    true,
  );
  assert.throws(
    () => deleteThread(store, { threadId: newId("thread"), clientRequestId: "delete-3" }),
    storeErrorCode("thread_not_found"),
  );
});

Deno.test("a thread with a queued, running or waiting Run is refused; archived is fine", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId, { content: SECRET });
  const refuse = (why: string) => {
    const before = countRows(store);
    assert.throws(
      () => deleteThread(store, { threadId, clientRequestId: `delete-${why}` }),
      storeErrorCode("thread_busy"),
      why,
    );
    assert.equal(countRows(store), before, `${why}: a refused deletion wrote something`);
    assert.ok(mentions(fixture, SECRET).length > 0, `${why}: erased anyway`);
  };
  refuse("queued");
  activateRun(store, runId);
  refuse("running");
  const call = startItem(store, runId, {
    kind: "tool_call",
    role: "assistant",
    status: "running",
    data: { toolId: "process_start", callId: "c1" },
  }).result;
  requestApproval(store, {
    runId,
    toolCallItemId: call.id,
    toolId: "process_start",
    summary: "s",
    target: null,
    risk: "process",
    reasonCode: "permission_ask",
  });
  refuse("waiting");
  settleRun(store, runId, "cancelled", "cancelled", null);
  setThreadArchived(store, threadId, true);
  const { result } = deleteThread(store, { threadId, clientRequestId: "delete-archived" });
  assert.equal(result.deleted, true);
  assert.equal(verifyJournal(store.db.connection).ok, true);
});

Deno.test("a failure before the commit leaves the thread as it was", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const doomed = await fullThread(fixture, SECRET);
  const before = threadRows(fixture, doomed.threadId);
  const events = countRows(store);
  assert.throws(
    () =>
      deleteThread(store, {
        threadId: doomed.threadId,
        clientRequestId: "delete-1",
        beforeCommit: () => {
          throw new Error("disk full");
        },
      }),
    /disk full/,
  );
  assert.deepEqual(threadRows(fixture, doomed.threadId), before);
  assert.equal(countRows(store), events);
  assert.equal(isThreadDeleted(store.db, doomed.threadId), false);
  assert.equal(verifyJournal(store.db.connection).ok, true);
  // secure_delete is back to what it was on this connection.
  const pragma = store.db.connection.prepare("PRAGMA secure_delete").get();
  assert.equal(Number(pragma?.secure_delete), 0);
});

Deno.test("the tombstone verifies only where a later deletion names the row's thread", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const doomed = await fullThread(fixture, SECRET);
  const kept = await fullThread(fixture, "keeper");
  const c = store.db.connection;
  const keptSeq = Number(
    c.prepare(
      "SELECT min(seq) AS s FROM events WHERE thread_id = ? AND event_type = 'run.state_changed'",
    )
      .get(kept.threadId)?.s,
  );
  const doomedSeq = Number(
    c.prepare(
      "SELECT min(seq) AS s FROM events WHERE thread_id = ? AND event_type = 'run.state_changed'",
    )
      .get(doomed.threadId)?.s,
  );
  const payloadOf = (seq: number) =>
    String(c.prepare("SELECT payload_json FROM events WHERE seq = ?").get(seq)?.payload_json);
  const setPayload = (seq: number, text: string) =>
    c.prepare("UPDATE events SET payload_json = ? WHERE seq = ?").run(text, seq);

  // Before any deletion, a tombstone is an alteration.
  const original = payloadOf(doomedSeq);
  setPayload(doomedSeq, ERASED_PAYLOAD_JSON);
  assert.deepEqual(
    [verifyJournal(c).failure?.reason, verifyJournal(c).failure?.seq],
    ["payload_altered", doomedSeq],
  );
  setPayload(doomedSeq, original);
  assert.equal(verifyJournal(c).ok, true);

  deleteThread(store, { threadId: doomed.threadId, clientRequestId: "delete-1" });
  const cases: { name: string; seq: number; text: string; reason: string }[] = [
    {
      name: "a tombstone on another thread's row",
      seq: keptSeq,
      text: ERASED_PAYLOAD_JSON,
      reason: "payload_altered",
    },
    {
      name: "an edited payload of another thread",
      seq: keptSeq,
      text: payloadOf(keptSeq).replace("{", "{ "),
      reason: "payload_altered",
    },
    {
      name: "other text in place of a tombstone",
      seq: doomedSeq,
      text: '{"erased":"thread.deleted" }',
      reason: "payload_altered",
    },
  ];
  for (const { name, seq, text, reason } of cases) {
    const before = payloadOf(seq);
    setPayload(seq, text);
    const result = verifyJournal(c);
    assert.deepEqual(
      [result.ok, result.failure?.reason, result.failure?.seq],
      [false, reason, seq],
      name,
    );
    setPayload(seq, before);
    assert.equal(verifyJournal(c).ok, true, `${name}: restoring it must verify again`);
  }
  // The envelope of an erased row is still covered by its hash.
  c.prepare("UPDATE events SET created_at = '2020-01-01T00:00:00.000Z' WHERE seq = ?").run(
    doomedSeq,
  );
  assert.equal(verifyJournal(c).failure?.reason, "row_altered");
  c.prepare("UPDATE events SET created_at = ? WHERE seq = ?").run(
    String(c.prepare("SELECT created_at FROM events WHERE seq = ?").get(doomedSeq + 1)?.created_at),
    doomedSeq,
  );
  // A deletion event moved to a thread's other row makes the tombstones fail.
  const deletion = Number(
    c.prepare("SELECT seq FROM events WHERE event_type = 'thread.deleted'").get()?.seq,
  );
  c.prepare("UPDATE events SET event_type = 'thread.renamed' WHERE seq = ?").run(deletion);
  const forged = verifyJournal(c);
  assert.equal(forged.ok, false, "without its deletion event the erased rows must not verify");
  assert.equal(forged.failure?.reason, "payload_altered");
});

Deno.test("an exported segment with erased rows verifies with its deletion event", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const doomed = await fullThread(fixture, SECRET);
  deleteThread(store, { threadId: doomed.threadId, clientRequestId: "delete-1" });
  const rows = store.db.connection.prepare(
    `SELECT seq, schema_version, event_type, thread_id, branch_id, turn_id, run_id, item_id,
       created_at, payload_json, prev_hash, payload_hash, hash FROM events WHERE thread_id = ?
     ORDER BY seq`,
  ).all(doomed.threadId).map((row) => ({
    seq: Number(row.seq),
    schemaVersion: Number(row.schema_version),
    type: String(row.event_type),
    threadId: row.thread_id as string,
    branchId: row.branch_id as string | null,
    turnId: row.turn_id as string | null,
    runId: row.run_id as string | null,
    itemId: row.item_id as string | null,
    timestamp: String(row.created_at),
    payloadJson: String(row.payload_json),
    prevHash: String(row.prev_hash),
    payloadHash: String(row.payload_hash),
    hash: String(row.hash),
  }));
  assert.ok(rows.slice(0, -1).every((row) => isErasedPayload(row.payloadJson)));
  assert.equal(verifyChainSegment(rows).ok, true);
  assert.equal(verifyChainSegment(rows.slice(0, -1)).failure?.reason, "payload_altered");
});

Deno.test("isErasedPayload accepts exactly the tombstone", () => {
  const table: [string, boolean][] = [
    [ERASED_PAYLOAD_JSON, true],
    [`${ERASED_PAYLOAD_JSON} `, false],
    ['{"erased":"thread.deleted","x":1}', false],
    ["{}", false],
    ["", false],
  ];
  for (const [text, expected] of table) {
    assert.equal(isErasedPayload(text), expected, `isErasedPayload(${JSON.stringify(text)})`);
  }
});

Deno.test("the export of a deleted thread is thread_not_found", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const doomed = await fullThread(fixture, SECRET);
  const read = <T>(fn: (connection: typeof store.db.connection) => T): T => fn(store.db.connection);
  assert.ok([...exportThreadChunks(read, doomed.threadId, "jsonl")].join("").includes(SECRET));
  deleteThread(store, { threadId: doomed.threadId, clientRequestId: "delete-1" });
  for (const format of ["jsonl", "markdown"] as const) {
    assert.throws(
      () => [...exportThreadChunks(read, doomed.threadId, format)],
      (error) => error instanceof JournalExportError && error.code === "thread_not_found",
      format,
    );
  }
});

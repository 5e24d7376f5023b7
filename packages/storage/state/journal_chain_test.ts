import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openStateDatabase, type StateDatabase } from "./database.ts";
import { createStateSchema, STATE_SCHEMA_VERSION } from "./schema.ts";
import {
  chainLink,
  eventHash,
  JOURNAL_CHAIN_GENESIS,
  payloadHash,
  payloadTextHash,
  readChainTail,
} from "./journal_chain.ts";
import {
  type ChainFailureReason,
  chainRowOf,
  verifyChainSegment,
  verifyJournal,
} from "./journal_verify.ts";
import { insertEvent } from "./reads/_fixtures.ts";
import { checkState } from "./maintenance.ts";

Deno.test("the payload hash is the stored text's and survives a parse; the event hash covers every field", () => {
  const payload = { b: [2, { d: 1, c: 0 }], a: 'x\u2028"', n: -0, 10: 1, 2: 2, e: 5e-324 };
  const text = JSON.stringify(payload);
  assert.equal(payloadHash(payload), payloadTextHash(text), "payloadHash hashes JSON.stringify");
  assert.equal(JSON.stringify(JSON.parse(text)), text, "the stored text is a parse fixed point");
  assert.notEqual(payloadHash({ a: 1, b: 2 }), payloadHash({ b: 2, a: 1 }), "key order counts");
  const envelope = {
    seq: 1,
    schemaVersion: 1,
    type: "thread.created",
    threadId: "thr_1",
    branchId: null,
    turnId: null,
    runId: null,
    itemId: null,
    timestamp: "2026-12-01T00:00:00.000Z",
  };
  const base = eventHash(JOURNAL_CHAIN_GENESIS, envelope, payloadHash({}));
  assert.match(base, /^[0-9a-f]{64}$/);
  for (
    const [field, value] of Object.entries({
      seq: 2,
      schemaVersion: 2,
      type: "x",
      threadId: null,
      branchId: "b",
      timestamp: "t",
    })
  ) {
    assert.notEqual(
      eventHash(JOURNAL_CHAIN_GENESIS, { ...envelope, [field]: value }, payloadHash({})),
      base,
      `changing ${field} must change the hash`,
    );
  }
  assert.notEqual(eventHash("1".repeat(64), envelope, payloadHash({})), base, "prev hash covered");
  assert.notEqual(eventHash(JOURNAL_CHAIN_GENESIS, envelope, payloadHash({ a: 1 })), base);
  // A field boundary cannot be moved: ["ab", null] and ["a", "b"] differ as JSON arrays.
  assert.notEqual(
    eventHash(JOURNAL_CHAIN_GENESIS, { ...envelope, threadId: "ab", branchId: null }, "p"),
    eventHash(JOURNAL_CHAIN_GENESIS, { ...envelope, threadId: "a", branchId: "b" }, "p"),
  );
});

function journal(events: number): StateDatabase {
  const db = openStateDatabase(":memory:");
  for (let i = 0; i < events; i++) {
    insertEvent(db, {
      type: "thread.updated",
      threadId: `thr_${i % 3}`,
      payload: { title: `title ${i}`, nested: { n: i, z: [i, "x"] } },
    });
  }
  return db;
}

function expectFailure(db: StateDatabase, reason: ChainFailureReason, seq: number) {
  const result = verifyJournal(db.connection);
  assert.equal(result.ok, false, `expected ${reason} at seq ${seq}, the chain verified`);
  assert.deepEqual(
    { reason: result.failure?.reason, seq: result.failure?.seq },
    { reason, seq },
    `wrong failure: ${result.failure?.message}`,
  );
}

Deno.test("an intact journal verifies and reports its head", () => {
  const db = journal(10);
  try {
    const result = verifyJournal(db.connection);
    const last = db.connection.prepare("SELECT hash FROM events WHERE seq = 10").get();
    assert.deepEqual(result, { ok: true, events: 10, head: { seq: 10, hash: String(last?.hash) } });
    const first = db.connection.prepare("SELECT prev_hash FROM events WHERE seq = 1").get();
    assert.equal(first?.prev_hash, JOURNAL_CHAIN_GENESIS, "the first row chains from genesis");
    assert.deepEqual(verifyJournal(openStateDatabase(":memory:").connection), {
      ok: true,
      events: 0,
      head: null,
    });
  } finally {
    db.close();
  }
});

Deno.test("an altered payload byte is payload_altered at its seq", () => {
  const db = journal(10);
  try {
    db.connection.exec(
      "UPDATE events SET payload_json = replace(payload_json, 'title 6', 'title 7') WHERE seq = 7",
    );
    expectFailure(db, "payload_altered", 7);
    assert.equal(checkState(db).ok, false, "storage check must include the chain");
    assert.equal(checkState(db).chain.failure?.seq, 7);
  } finally {
    db.close();
  }
});

Deno.test("a payload rewritten with its payload hash recomputed is row_altered", () => {
  const db = journal(10);
  try {
    const payload = { title: "forged" };
    db.connection.prepare("UPDATE events SET payload_json = ?, payload_hash = ? WHERE seq = 4")
      .run(JSON.stringify(payload), payloadHash(payload));
    expectFailure(db, "row_altered", 4);
  } finally {
    db.close();
  }
});

Deno.test("an altered envelope field is row_altered", () => {
  const db = journal(10);
  try {
    db.connection.exec("UPDATE events SET created_at = '2030-01-01T00:00:00.000Z' WHERE seq = 5");
    expectFailure(db, "row_altered", 5);
  } finally {
    db.close();
  }
});

Deno.test("a row rewritten with every hash of its own recomputed breaks the next link", () => {
  const db = journal(10);
  try {
    const row = chainRowOf(db.connection.prepare("SELECT * FROM events WHERE seq = 5").get()!);
    const payload = { title: "forged" };
    const link = chainLink(row.prevHash!, row, payload);
    db.connection.prepare(
      "UPDATE events SET payload_json = ?, payload_hash = ?, hash = ? WHERE seq = 5",
    )
      .run(JSON.stringify(payload), link.payloadHash, link.hash);
    expectFailure(db, "link_broken", 6);
  } finally {
    db.close();
  }
});

Deno.test("a deleted row is row_deleted at its seq, the first row too", () => {
  for (const seq of [1, 4]) {
    const db = journal(10);
    try {
      db.connection.exec(`DELETE FROM events WHERE seq = ${seq}`);
      expectFailure(db, "row_deleted", seq);
    } finally {
      db.close();
    }
  }
});

Deno.test("two swapped rows are row_moved at the first of them", () => {
  const db = journal(10);
  try {
    db.connection.exec(`UPDATE events SET seq = -3 WHERE seq = 3;
      UPDATE events SET seq = 3 WHERE seq = 7;
      UPDATE events SET seq = 7 WHERE seq = -3;`);
    const result = verifyJournal(db.connection);
    assert.deepEqual(
      {
        reason: result.failure?.reason,
        seq: result.failure?.seq,
        message: result.failure?.message,
      },
      { reason: "row_moved", seq: 3, message: "seq 3 holds the row written as seq 7" },
    );
  } finally {
    db.close();
  }
});

Deno.test("a truncated tail is tail_truncated while sqlite_sequence remembers it", () => {
  const db = journal(10);
  try {
    db.connection.exec("DELETE FROM events WHERE seq > 7");
    expectFailure(db, "tail_truncated", 8);
  } finally {
    db.close();
  }
});

Deno.test("a tail cut with sqlite_sequence too verifies; only a kept head shows it", () => {
  const db = journal(10);
  try {
    const kept = verifyJournal(db.connection).head!;
    db.connection.exec(`DELETE FROM events WHERE seq > 7;
      UPDATE sqlite_sequence SET seq = 7 WHERE name = 'events'`);
    assert.equal(verifyJournal(db.connection).ok, true, "no anchor: the chain alone cannot tell");
    const result = verifyJournal(db.connection, kept);
    assert.deepEqual({ reason: result.failure?.reason, seq: result.failure?.seq }, {
      reason: "head_mismatch",
      seq: 10,
    });
    // A head kept earlier still matches after the journal grew.
    const older = {
      seq: 5,
      hash: String(db.connection.prepare("SELECT hash FROM events WHERE seq = 5").get()?.hash),
    };
    assert.equal(verifyJournal(db.connection, older).ok, true);
    assert.equal(
      verifyJournal(db.connection, { seq: 5, hash: "0".repeat(64) }).failure?.reason,
      "head_mismatch",
    );
  } finally {
    db.close();
  }
});

Deno.test("a row without chain columns, or a journal without them, is chain_missing", () => {
  const db = journal(5);
  try {
    db.connection.exec("UPDATE events SET hash = NULL WHERE seq = 3");
    expectFailure(db, "chain_missing", 3);
    // Appending after an unchained row does not fail; verification names that row.
    assert.equal(readChainTail(db.connection).nextSeq, 6);
  } finally {
    db.close();
  }
  const raw = new DatabaseSync(":memory:");
  try {
    createStateSchema(raw, 5);
    raw.exec(`INSERT INTO events (schema_version, event_type, created_at, payload_json)
      VALUES (1, 'thread.created', 'now', '{}')`);
    const result = verifyJournal(raw);
    assert.deepEqual({ reason: result.failure?.reason, seq: result.failure?.seq }, {
      reason: "chain_missing",
      seq: 1,
    });
  } finally {
    raw.close();
  }
});

Deno.test("the next seq is what AUTOINCREMENT would assign, past rolled-forward gaps", () => {
  const db = journal(3);
  try {
    assert.deepEqual(readChainTail(db.connection).nextSeq, 4);
    db.connection.exec("UPDATE sqlite_sequence SET seq = 9 WHERE name = 'events'");
    assert.equal(readChainTail(db.connection).nextSeq, 10);
  } finally {
    db.close();
  }
});

Deno.test("the migration from version 5 computes the chain of the rows already there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-chain-" });
  try {
    const path = `${dir}/state.db`;
    const raw = new DatabaseSync(path);
    raw.exec("PRAGMA journal_mode = WAL");
    createStateSchema(raw, 5);
    const insert = raw.prepare(`INSERT INTO events (schema_version, event_type, thread_id,
      created_at, payload_json) VALUES (1, 'thread.updated', ?, ?, ?)`);
    // More rows than one backfill batch, so the batching is exercised.
    for (let i = 0; i < 2_500; i++) {
      insert.run(
        `thr_${i % 7}`,
        `2026-12-01T00:00:${String(i % 60).padStart(2, "0")}.000Z`,
        JSON.stringify({ b: i, a: [i] }),
      );
    }
    // A hand-written text JSON.stringify would not write: rewritten so, same value.
    insert.run("thr_hand", "2026-12-01T00:01:00.000Z", '{ "b" : 1,\n "a": [ 1.0 ] }');
    raw.close();
    const db = openStateDatabase(path);
    try {
      assert.equal(
        Number(db.connection.prepare("PRAGMA user_version").get()?.user_version),
        STATE_SCHEMA_VERSION,
      );
      const result = verifyJournal(db.connection);
      assert.equal(result.ok, true, `migrated chain must verify: ${result.failure?.message}`);
      assert.equal(result.events, 2_501);
      const hand = db.connection.prepare("SELECT payload_json FROM events WHERE seq = 2501").get();
      assert.equal(hand?.payload_json, '{"b":1,"a":[1]}', "the hand-written text is normalized");
      // The migrated chain is the one the append path would have written.
      let prev = JOURNAL_CHAIN_GENESIS;
      for (const row of db.connection.prepare("SELECT * FROM events ORDER BY seq").all()) {
        const chained = chainRowOf(row);
        const link = chainLink(prev, chained, JSON.parse(chained.payloadJson));
        assert.deepEqual(
          { prevHash: chained.prevHash, payloadHash: chained.payloadHash, hash: chained.hash },
          link,
          `seq ${chained.seq}`,
        );
        prev = link.hash;
      }
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an exported segment of one thread verifies; a changed or reordered one does not", () => {
  const db = journal(12);
  try {
    const rows = db.connection.prepare(
      "SELECT * FROM events WHERE thread_id = 'thr_1' ORDER BY seq",
    )
      .all().map(chainRowOf);
    assert.equal(rows.length, 4);
    assert.deepEqual(verifyChainSegment(rows), {
      ok: true,
      events: 4,
      head: { seq: rows[3]!.seq, hash: rows[3]!.hash! },
    });
    const altered = rows.map((r) => ({ ...r }));
    altered[2]!.payloadJson = altered[2]!.payloadJson.replace("title", "tit1e");
    assert.equal(verifyChainSegment(altered).failure?.reason, "payload_altered");
    assert.equal(verifyChainSegment(altered).failure?.seq, rows[2]!.seq);
    const swapped = [rows[0]!, rows[2]!, rows[1]!, rows[3]!];
    assert.deepEqual(verifyChainSegment(swapped).failure?.reason, "row_moved");
    // Adjacent rows of a whole-journal segment are linked.
    const all = db.connection.prepare("SELECT * FROM events ORDER BY seq").all().map(chainRowOf);
    const relinked = all.map((r) => ({ ...r }));
    relinked[5] = { ...relinked[5]!, prevHash: "f".repeat(64) };
    const result = verifyChainSegment(relinked);
    assert.equal(result.ok, false);
  } finally {
    db.close();
  }
});

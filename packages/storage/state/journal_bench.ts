/**
 * Journal throughput: single-event commits, batched appends, and replaying a large
 * journal. Run with `deno task bench`; results go in packages/storage/README.md.
 */
import { DatabaseSync } from "node:sqlite";
import { EVENT_SCHEMA_VERSION } from "@daedalus/protocol";
import { STATE_SCHEMA_STATEMENTS } from "./schema.ts";
import {
  activateRun,
  appendItemDelta,
  createThread,
  startItem,
  startTurn,
  StateStore,
} from "../mod.ts";
import { iterateJournal } from "./journal.ts";
import {
  chainLinkOfText,
  currentChainTail,
  forgetChainTail,
  readChainTail,
} from "./journal_chain.ts";
import { appendEvent, type EventDraft } from "./journal.ts";
import { appendUnchainedForBench } from "./_unchained_append.ts";
import { verifyJournal } from "./journal_verify.ts";
import { TEST_RUN_CONFIG } from "./_test_store.ts";

const dir = await Deno.makeTempDir({ prefix: "daedalus-bench-" });

async function runWithStreamingItem(path: string) {
  const store = StateStore.open(path);
  const { result } = await createThread(store, { title: "bench", workspacesRoot: `${dir}/ws` });
  const turn = startTurn(store, {
    threadId: result.thread.id,
    content: "go",
    providerId: "p",
    modelId: "m",
    runConfig: TEST_RUN_CONFIG,
  });
  activateRun(store, turn.result.runId);
  const item = startItem(store, turn.result.runId, {
    kind: "message",
    role: "assistant",
    status: "streaming",
  });
  return { store, itemId: item.result.id, runId: turn.result.runId };
}

// Items are rotated every 500 deltas, as a streamed answer (deltas coalesced to 256
// characters) ends long before its row grows without bound.
const single = await runWithStreamingItem(`${dir}/single.db`);
let deltas = 0;
Deno.bench("journal: one item.delta per transaction (commit)", { group: "append" }, () => {
  if (++deltas % 500 === 0) {
    single.itemId = startItem(single.store, single.runId, {
      kind: "message",
      role: "assistant",
      status: "streaming",
    }).result.id;
  }
  appendItemDelta(single.store, single.itemId, "a delta of some forty characters or so..");
});

// The like-for-like baseline: the same INSERT into the same events table (seed DDL,
// its indexes and AUTOINCREMENT), one transaction each, with no journal code around it.
const raw = new DatabaseSync(`${dir}/raw.db`);
raw.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON");
raw.exec(STATE_SCHEMA_STATEMENTS.find((sql) => sql.startsWith("CREATE TABLE events"))!);
for (const sql of STATE_SCHEMA_STATEMENTS.filter((sql) => / ON events\(/.test(sql))) raw.exec(sql);
const rawInsert = raw.prepare(
  `INSERT INTO events (schema_version, event_type, thread_id, branch_id, turn_id, run_id, item_id,
     created_at, payload_json) VALUES (1, 'item.delta', ?, ?, ?, ?, ?, ?, ?)`,
);
const rawPayload = JSON.stringify({ delta: "a delta of some forty characters or so.." });
Deno.bench("raw node:sqlite: one INSERT into events per BEGIN IMMEDIATE (baseline)", {
  group: "append",
  baseline: true,
}, () => {
  raw.exec("BEGIN IMMEDIATE");
  rawInsert.run(
    single.runId,
    single.runId,
    single.runId,
    single.runId,
    single.itemId,
    new Date().toISOString(),
    rawPayload,
  );
  raw.exec("COMMIT");
});

const bare = await runWithStreamingItem(`${dir}/bare.db`);
const bareScope = bare.store.db.connection.prepare(
  "SELECT t.thread_id, t.branch_id, r.turn_id FROM runs r JOIN turns t ON t.id = r.turn_id WHERE r.id = ?",
).get(bare.runId)!;
Deno.bench("journal: one context.compacted per transaction (append + validate, no projection)", {
  group: "append",
}, () => {
  bare.store.write((context) =>
    context.append({
      type: "context.compacted",
      threadId: String(bareScope.thread_id),
      branchId: String(bareScope.branch_id),
      turnId: String(bareScope.turn_id),
      runId: bare.runId,
      payload: { revision: 2 },
    })
  );
});

// Chain on vs off, like for like: the same draft appended in one db.transaction each,
// by appendEvent (chain on) and by the bench-only unchained copy of it (chain off), each
// on its own journal so both tails stay realistic.
const compacted: EventDraft = {
  type: "context.compacted",
  threadId: String(bareScope.thread_id),
  branchId: String(bareScope.branch_id),
  turnId: String(bareScope.turn_id),
  runId: bare.runId,
  payload: { revision: 2 },
};
Deno.bench("journal chain ON: appendEvent of one context.compacted per transaction", {
  group: "append",
}, () => {
  bare.store.db.transaction(() =>
    appendEvent(bare.store.db.connection, compacted, new Date().toISOString())
  );
});
const off = await runWithStreamingItem(`${dir}/off.db`);
const offScope = off.store.db.connection.prepare(
  "SELECT t.thread_id, t.branch_id, r.turn_id FROM runs r JOIN turns t ON t.id = r.turn_id WHERE r.id = ?",
).get(off.runId)!;
const offDraft: EventDraft = {
  ...compacted,
  threadId: String(offScope.thread_id),
  branchId: String(offScope.branch_id),
  turnId: String(offScope.turn_id),
  runId: off.runId,
};
Deno.bench("journal chain OFF: the same append without the chain (bench-only path)", {
  group: "append",
}, () => {
  off.store.db.transaction(() =>
    appendUnchainedForBench(off.store.db.connection, offDraft, new Date().toISOString())
  );
});

// The chain's share of an append, alone: the kept tail (one data_version pragma) and the
// two SHA-256 (payload text, envelope) appendEvent adds, without the INSERT.
const chainPayloadJson = JSON.stringify({
  revision: 2,
  turnId: String(bareScope.turn_id),
  runId: bare.runId,
});
Deno.bench("journal chain alone: kept tail + payload and event hash per event", {
  group: "append",
}, () => {
  const tail = currentChainTail(bare.store.db.connection);
  chainLinkOfText(tail.prevHash, {
    seq: tail.nextSeq,
    schemaVersion: EVENT_SCHEMA_VERSION,
    type: "context.compacted",
    threadId: String(bareScope.thread_id),
    branchId: String(bareScope.branch_id),
    turnId: String(bareScope.turn_id),
    runId: bare.runId,
    itemId: null,
    timestamp: new Date().toISOString(),
  }, chainPayloadJson);
});

const batched = await runWithStreamingItem(`${dir}/batched.db`);
Deno.bench("journal: 1,000 item.delta events in one transaction", { group: "batch" }, () => {
  batched.itemId = startItem(batched.store, batched.runId, {
    kind: "message",
    role: "assistant",
    status: "streaming",
  }).result.id;
  batched.store.write((context) => {
    for (let i = 0; i < 1000; i++) {
      context.append({
        type: "item.delta",
        threadId: null,
        runId: batched.runId,
        itemId: batched.itemId,
        payload: { delta: "a delta of some forty characters or so.." },
      });
    }
  });
});

// A 1,000,000-event journal written directly (the bench measures reading it back).
const replayPath = `${dir}/replay.db`;
const big = await runWithStreamingItem(replayPath);
const scope = big.store.db.connection.prepare(
  "SELECT t.thread_id, t.branch_id, r.turn_id FROM runs r JOIN turns t ON t.id = r.turn_id WHERE r.id = ?",
).get(big.runId)!;
big.store.db.transaction(() => {
  const insert = big.store.db.connection.prepare(
    `INSERT INTO events (seq, schema_version, event_type, thread_id, branch_id, turn_id, run_id,
       item_id, created_at, payload_json, prev_hash, payload_hash, hash)
       VALUES (?, ?, 'item.delta', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const payload = {
    delta: "a streamed delta of ordinary length",
    turnId: scope.turn_id,
    runId: big.runId,
    itemId: big.itemId,
  };
  const payloadJson = JSON.stringify(payload);
  let { nextSeq: seq, prevHash } = readChainTail(big.store.db.connection);
  for (let i = 0; i < 1_000_000; i++, seq++) {
    const envelope = {
      seq,
      schemaVersion: EVENT_SCHEMA_VERSION,
      type: "item.delta",
      threadId: scope.thread_id as string,
      branchId: scope.branch_id as string,
      turnId: scope.turn_id as string,
      runId: big.runId,
      itemId: big.itemId,
      timestamp: "2026-10-01T10:00:00.000Z",
    };
    const link = chainLinkOfText(prevHash, envelope, payloadJson);
    insert.run(
      seq,
      EVENT_SCHEMA_VERSION,
      envelope.threadId,
      envelope.branchId,
      envelope.turnId,
      envelope.runId,
      envelope.itemId,
      envelope.timestamp,
      payloadJson,
      link.prevHash,
      link.payloadHash,
      link.hash,
    );
    prevHash = link.hash;
  }
});
forgetChainTail(big.store.db.connection); // rows written beside appendEvent
Deno.bench(
  "journal: replay 1,000,000 events (read + parse)",
  { group: "replay", n: 3, warmup: 1 },
  () => {
    let count = 0;
    for (const _event of iterateJournal(big.store.db.connection)) count++;
    if (count < 1_000_000) throw new Error(`replayed ${count}`);
  },
);

Deno.bench(
  "journal: verify the hash chain of 1,000,000 events",
  { group: "verify", n: 3, warmup: 1 },
  () => {
    const result = verifyJournal(big.store.db.connection);
    if (!result.ok || result.events < 1_000_000) {
      throw new Error(`verify: ${result.failure?.message ?? result.events}`);
    }
  },
);

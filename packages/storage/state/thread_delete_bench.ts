/**
 * What secure deletion costs: streamed deltas appended with `secure_delete` OFF and
 * FAST (the connection's setting), and deleting a thread of a few thousand events with
 * the deletion transaction's `secure_delete = ON` against the same erasure with it OFF.
 * Run with `deno run -A packages/storage/state/thread_delete_bench.ts`; the numbers are
 * in packages/storage/README.md.
 */
import {
  activateRun,
  appendItemDelta,
  completeItem,
  createThread,
  deleteThread,
  settleRun,
  startItem,
  startTurn,
  StateStore,
} from "../mod.ts";
import { TEST_RUN_CONFIG } from "./_test_store.ts";
import { ERASED_PAYLOAD_JSON } from "./erased_payload.ts";

const TURNS = 20;
const DELTAS_PER_TURN = 150;
const ROUNDS = 5;

const dir = await Deno.makeTempDir({ prefix: "daedalus-delete-bench-" });

/** A thread of TURNS turns, each a streamed answer of DELTAS_PER_TURN deltas. */
async function fill(store: StateStore, name: string): Promise<{ threadId: string; ms: number }> {
  const { result } = await createThread(store, { title: name, workspacesRoot: `${dir}/ws` });
  const threadId = result.thread.id;
  const started = performance.now();
  for (let turn = 0; turn < TURNS; turn++) {
    const { result: ids } = startTurn(store, {
      threadId,
      content: `question ${turn} ${"q".repeat(200)}`,
      providerId: "p",
      modelId: "m",
      runConfig: TEST_RUN_CONFIG,
    });
    activateRun(store, ids.runId);
    const item = startItem(store, ids.runId, {
      kind: "message",
      role: "assistant",
      status: "streaming",
    }).result;
    for (let d = 0; d < DELTAS_PER_TURN; d++) appendItemDelta(store, item.id, `word${d} `);
    completeItem(store, item.id, { status: "completed" });
    settleRun(store, ids.runId, "completed", null, null);
  }
  return { threadId, ms: performance.now() - started };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const fillMs: Record<string, number[]> = { OFF: [], FAST: [] };
const deleteOn: number[] = [];
const eraseOff: number[] = [];
let events = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ["OFF", "FAST"] as const) {
    const store = StateStore.open(`${dir}/fill-${mode}-${round}.db`);
    store.db.connection.exec(`PRAGMA secure_delete = ${mode}`);
    fillMs[mode].push((await fill(store, mode)).ms);
    store.close();
  }
  // The deletion as shipped (ON for its transaction) …
  const shipped = StateStore.open(`${dir}/delete-on-${round}.db`);
  const doomed = await fill(shipped, "doomed");
  await fill(shipped, "kept");
  const started = performance.now();
  const { result } = deleteThread(shipped, { threadId: doomed.threadId, clientRequestId: "b" });
  deleteOn.push(performance.now() - started);
  events = result.erasedEvents;
  shipped.close();
  // … against the same statements with secure_delete OFF (no deletion event).
  const plain = StateStore.open(`${dir}/delete-off-${round}.db`);
  const other = await fill(plain, "doomed");
  await fill(plain, "kept");
  plain.db.connection.exec("PRAGMA secure_delete = OFF");
  const t0 = performance.now();
  plain.db.transaction(() => {
    const c = plain.db.connection;
    c.prepare("DELETE FROM items WHERE turn_id IN (SELECT id FROM turns WHERE thread_id = ?)")
      .run(other.threadId);
    c.prepare("DELETE FROM threads WHERE id = ?").run(other.threadId);
    c.prepare("UPDATE events SET payload_json = ? WHERE thread_id = ?").run(
      ERASED_PAYLOAD_JSON,
      other.threadId,
    );
  });
  checkpointWal(plain);
  eraseOff.push(performance.now() - t0);
  plain.close();
}

function checkpointWal(store: StateStore): void {
  store.db.connection.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

const appends = TURNS * (DELTAS_PER_TURN + 5);
console.log(
  `fill, ${appends} commits: secure_delete OFF ${median(fillMs.OFF).toFixed(0)} ms, ` +
    `FAST ${median(fillMs.FAST).toFixed(0)} ms (median of ${ROUNDS})`,
);
console.log(
  `delete a thread of ${events} events: shipped (ON) ${median(deleteOn).toFixed(1)} ms, ` +
    `same erasure OFF ${median(eraseOff).toFixed(1)} ms (median of ${ROUNDS})`,
);
await Deno.remove(dir, { recursive: true });

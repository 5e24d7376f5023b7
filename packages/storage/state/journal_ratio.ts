/**
 * Journal append vs a raw INSERT, interleaved: 21 alternating blocks of 1,000 commits
 * each, reporting the median per-block ratio of wall time and of process CPU time.
 * On a shared machine `deno bench` runs the two benches minutes apart and its averages
 * follow the load and the WAL checkpoints; alternating blocks see the same load, and
 * CPU time leaves out waiting for the disk.
 *
 * Run with `deno run -A packages/storage/state/journal_ratio.ts`; the figures go in
 * packages/storage/README.md.
 *
 * @module
 */
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { STATE_SCHEMA_STATEMENTS } from "./schema.ts";
import { createThread, startTurn, StateStore } from "../mod.ts";
import { readRunScope } from "./run_writes.ts";
import { TEST_RUN_CONFIG } from "./_test_store.ts";

const BLOCKS = 21;
const COMMITS_PER_BLOCK = 1_000;

const dir = await Deno.makeTempDir({ prefix: "daedalus-ratio-" });
const store = StateStore.open(`${dir}/state.db`);
const { result } = await createThread(store, { title: "ratio", workspacesRoot: `${dir}/ws` });
const { runId } = startTurn(store, {
  threadId: result.thread.id,
  content: "go",
  providerId: "p",
  modelId: "m",
  runConfig: TEST_RUN_CONFIG,
}).result;
const scope = readRunScope(store.db, runId);

// The same baseline as journal_bench.ts: the seed DDL of `events` and its indexes.
const raw = new DatabaseSync(`${dir}/raw.db`);
raw.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON");
raw.exec(STATE_SCHEMA_STATEMENTS.find((sql) => sql.startsWith("CREATE TABLE events"))!);
for (const sql of STATE_SCHEMA_STATEMENTS.filter((sql) => / ON events\(/.test(sql))) raw.exec(sql);
const insert = raw.prepare(
  `INSERT INTO events (schema_version, event_type, thread_id, branch_id, turn_id, run_id, item_id,
     created_at, payload_json) VALUES (1, 'item.delta', ?, ?, ?, ?, ?, ?, ?)`,
);
const payload = JSON.stringify({ delta: "a delta of some forty characters or so.." });

function rawCommit(): void {
  raw.exec("BEGIN IMMEDIATE");
  insert.run(runId, runId, runId, runId, runId, new Date().toISOString(), payload);
  raw.exec("COMMIT");
}

function journalCommit(): void {
  store.write(({ append }) =>
    append({
      type: "context.compacted",
      threadId: scope.threadId,
      branchId: scope.branchId,
      turnId: scope.turnId,
      runId,
      payload: { revision: 2 },
    })
  );
}

/** Wall and CPU microseconds per commit over one block. */
function block(commit: () => void): [number, number] {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < COMMITS_PER_BLOCK; i++) commit();
  const used = process.cpuUsage(cpu);
  return [
    (performance.now() - wall) * 1000 / COMMITS_PER_BLOCK,
    (used.user + used.system) / COMMITS_PER_BLOCK,
  ];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
// Warm-up: JIT, page cache, the first checkpoints.
for (let i = 0; i < 3; i++) {
  block(rawCommit);
  block(journalCommit);
}
const raws: [number, number][] = [];
const journals: [number, number][] = [];
for (let i = 0; i < BLOCKS; i++) {
  raws.push(block(rawCommit));
  journals.push(block(journalCommit));
}
for (const [index, name] of ["wall", "CPU"].entries()) {
  const rawMedian = median(raws.map((r) => r[index]!));
  const journalMedian = median(journals.map((j) => j[index]!));
  const ratio = median(raws.map((r, k) => r[index]! / journals[k]![index]!));
  console.log(
    `${name}: raw INSERT ${rawMedian.toFixed(1)} µs, journal append ${
      journalMedian.toFixed(1)
    } µs per commit → journal ${ratio.toFixed(2)}× raw`,
  );
}
store.close();
raw.close();
await Deno.remove(dir, { recursive: true });

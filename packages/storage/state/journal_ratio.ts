/**
 * Journal append vs a raw INSERT, interleaved: 21 rounds of one block of 1,000 commits
 * each of a raw INSERT, the journal with the chain off (the bench-only unchained append),
 * the journal with the chain on (appendEvent, same transaction wrapper) and the full
 * `store.write`, reporting medians and the median per-round ratio of wall time and of
 * process CPU time.
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
import { appendEvent, type EventDraft } from "./journal.ts";
import { appendUnchainedForBench } from "./_unchained_append.ts";

const BLOCKS = 21;
const COMMITS_PER_BLOCK = 1_000;

const dir = await Deno.makeTempDir({ prefix: "daedalus-ratio-" });

/** A journal with one run, and the projection-free event its commits append. */
async function journalWithRun(path: string): Promise<{ store: StateStore; draft: EventDraft }> {
  const store = StateStore.open(path);
  const { result } = await createThread(store, { title: "ratio", workspacesRoot: `${dir}/ws` });
  const { runId } = startTurn(store, {
    threadId: result.thread.id,
    content: "go",
    providerId: "p",
    modelId: "m",
    runConfig: TEST_RUN_CONFIG,
  }).result;
  const scope = readRunScope(store.db, runId);
  const draft: EventDraft = {
    type: "context.compacted",
    threadId: scope.threadId,
    branchId: scope.branchId,
    turnId: scope.turnId,
    runId,
    payload: { revision: 2 },
  };
  return { store, draft };
}
const { store, draft } = await journalWithRun(`${dir}/state.db`);
const { store: offStore, draft: offDraft } = await journalWithRun(`${dir}/off.db`);
const { store: onStore, draft: onDraft } = await journalWithRun(`${dir}/on.db`);
const runId = draft.runId!;

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

function chainOffCommit(): void {
  offStore.db.transaction(() =>
    appendUnchainedForBench(offStore.db.connection, offDraft, new Date().toISOString())
  );
}

function chainOnCommit(): void {
  onStore.db.transaction(() =>
    appendEvent(onStore.db.connection, onDraft, new Date().toISOString())
  );
}

function storeWriteCommit(): void {
  store.write(({ append }) => append(draft));
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
const kinds: [string, () => void][] = [
  ["raw INSERT", rawCommit],
  ["journal, chain off", chainOffCommit],
  ["journal, chain on", chainOnCommit],
  ["store.write, chain on", storeWriteCommit],
];
// Warm-up: JIT, page cache, the first checkpoints.
for (let i = 0; i < 3; i++) for (const [, commit] of kinds) block(commit);
const results: [number, number][][] = kinds.map(() => []);
for (let i = 0; i < BLOCKS; i++) {
  for (const [k, [, commit]] of kinds.entries()) results[k]!.push(block(commit));
}
console.log(`load average ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
for (const [index, name] of ["wall", "CPU"].entries()) {
  const raws = results[0]!;
  for (const [k, [kind]] of kinds.entries()) {
    const runs = results[k]!;
    const us = median(runs.map((r) => r[index]!));
    const ratio = median(raws.map((r, n) => r[index]! / runs[n]![index]!));
    const vsOff = median(results[1]!.map((r, n) => r[index]! / runs[n]![index]!));
    console.log(
      `${name}: ${kind} ${us.toFixed(1)} µs per commit (${
        Math.round(1e6 / us).toLocaleString("en")
      }/s) → ${ratio.toFixed(2)}× raw, ${vsOff.toFixed(2)}× chain off`,
    );
  }
}
store.close();
offStore.close();
onStore.close();
raw.close();
await Deno.remove(dir, { recursive: true });

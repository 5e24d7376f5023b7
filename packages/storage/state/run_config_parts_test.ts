import assert from "node:assert/strict";
import type { JournalEvent, RunConfig } from "@daedalus/protocol";
import {
  assertValidEvents,
  countRows,
  openTestStore,
  readRow,
  seedThread,
  seedTurn,
  TEST_RUN_CONFIG,
  testRunConfig,
} from "./_test_store.ts";
import { startTurn } from "./turn_writes.ts";
import { readRunConfig } from "./run_row.ts";
import { contentHash, splitRunConfig, storeRunConfigParts } from "./run_config_parts.ts";
import { applyEvent, clearProjections } from "./projections.ts";
import { iterateJournal } from "./journal.ts";
import { checkState } from "./maintenance.ts";
import { JournalError, StoreError } from "./errors.ts";
import { ReadError } from "./reads/errors.ts";

type Queued = Extract<JournalEvent, { type: "run.state_changed" }>;

function queuedOf(events: readonly JournalEvent[]): Queued {
  const queued = events.find((event) => event.type === "run.state_changed");
  assert.ok(queued, "startTurn must journal a run.state_changed");
  return queued as Queued;
}

function startWith(store: Parameters<typeof startTurn>[0], threadId: string, config: RunConfig) {
  return startTurn(store, {
    threadId,
    content: "go",
    providerId: config.providerId,
    modelId: config.modelId,
    runConfig: config,
  });
}

Deno.test("the first turn journals each part once; later turns carry references only", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const first = startWith(store, threadId, TEST_RUN_CONFIG);
  const second = startWith(store, threadId, TEST_RUN_CONFIG);
  assertValidEvents([...first.events, ...second.events]);

  const carried = queuedOf(first.events).payload.runConfigParts ?? [];
  assert.deepEqual(carried.map((part) => part.kind), ["tool_schemas", "identity", "skills"]);
  for (const part of carried) {
    assert.equal(part.hash, contentHash(JSON.stringify(part.content)), `${part.kind} hash`);
  }
  const later = queuedOf(second.events).payload;
  assert.equal(later.runConfigParts, undefined, "a stored part must not be journaled again");
  const { tools: _t, identity: _i, skills: _s, ...record } = TEST_RUN_CONFIG;
  assert.deepEqual(later.runConfig, record, "the event carries the record with references");
  const bytes = JSON.stringify(later.runConfig).length;
  assert.ok(bytes < 512, `a warm turn's runConfig is ${bytes} bytes`);
  assert.equal(countRows(store, "run_config_parts"), 3);
  const row = readRow(
    store,
    "SELECT config_json FROM run_configs WHERE run_id = ?",
    second.result.runId,
  );
  assert.deepEqual(JSON.parse(String(row.config_json)), record);
});

Deno.test("readRunConfig resolves the references to the frozen config", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const skills = [{ name: "notes", description: "Take notes", location: "/s/notes/SKILL.md" }];
  const config = testRunConfig({ subagentDepth: 2, reasoningEffort: "high", skills });
  const { runId } = seedTurn(store, threadId, { runConfig: config });
  const read = store.read((db) => readRunConfig(db, runId));
  assert.deepEqual(read, config);
  assert.ok(Object.isFrozen(read.tools[0]), "shared parts are frozen");
  // The parts are shared, so a second Run reads the very same (cached) objects.
  const other = seedTurn(store, threadId, { runConfig: config });
  assert.equal(store.read((db) => readRunConfig(db, other.runId)).tools, read.tools);
});

Deno.test("readRunConfig parses a stored config once, but always reads its row", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId, { runConfig: TEST_RUN_CONFIG });
  const first = store.read((db) => readRunConfig(db, runId));
  assert.equal(
    store.read((db) => readRunConfig(db, runId)),
    first,
    "the same text, the same config",
  );
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.parts), "a shared config is frozen");
  const set = (text: string) =>
    store.db.connection.prepare("UPDATE run_configs SET config_json = ? WHERE run_id = ?")
      .run(text, runId);
  // A row edited behind the store's back is parsed again: a malformed one is refused.
  const stored = String(
    readRow(store, "SELECT config_json FROM run_configs WHERE run_id = ?", runId)
      .config_json,
  );
  set(JSON.stringify({ ...JSON.parse(stored), modelId: "" }));
  assert.throws(
    () => store.read((db) => readRunConfig(db, runId)),
    (error) => error instanceof ReadError && error.code === "projection_corrupt",
  );
  set(JSON.stringify({ ...JSON.parse(stored), modelId: "other-model" }));
  assert.equal(store.read((db) => readRunConfig(db, runId)).modelId, "other-model");
  store.db.connection.prepare("DELETE FROM run_configs WHERE run_id = ?").run(runId);
  assert.throws(
    () => store.read((db) => readRunConfig(db, runId)),
    (error) => error instanceof StoreError && error.code === "run_not_found",
  );
});

Deno.test("a new part whose content does not match its hash is refused; nothing is written", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const events = countRows(store);
  const forged: RunConfig = {
    ...TEST_RUN_CONFIG,
    tools: [{ name: "write", description: "Writes", parameters: {}, mutating: true }],
  };
  assert.throws(
    () => startWith(store, threadId, forged),
    (error) => error instanceof JournalError && error.code === "run_config_part_mismatch",
  );
  assert.equal(countRows(store), events, "no event was committed");
  for (const table of ["run_config_parts", "run_configs", "runs", "turns", "items"]) {
    assert.equal(countRows(store, table), 0, `${table} has a row from the refused turn`);
  }
});

Deno.test("a changed part alone is journaled; the others stay references", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  startWith(store, threadId, TEST_RUN_CONFIG);
  const skills = [{ name: "deploy", description: "Deploys", location: "/s/deploy/SKILL.md" }];
  const changed = startWith(store, threadId, testRunConfig({ skills }));
  const carried = queuedOf(changed.events).payload.runConfigParts ?? [];
  assert.deepEqual(carried.map((part) => [part.kind, part.content]), [["skills", skills]]);
  assert.equal(countRows(store, "run_config_parts"), 4);
});

Deno.test("a rebuild restores every part from the journal and storage check agrees", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const skills = [{ name: "deploy", description: "Deploys", location: "/s/deploy/SKILL.md" }];
  const runs = [TEST_RUN_CONFIG, testRunConfig({ skills }), TEST_RUN_CONFIG].map((config) =>
    startWith(store, threadId, config).result.runId
  );
  const connection = store.db.connection;
  store.db.transaction(() => {
    clearProjections(connection);
    for (const event of iterateJournal(connection)) applyEvent(connection, event);
  });
  assert.equal(countRows(store, "run_config_parts"), 4);
  assert.deepEqual(store.read((db) => readRunConfig(db, runs[1]!)).skills, skills);
  const report = checkState(store.db);
  assert.ok(report.ok, `storage check: ${JSON.stringify(report)}`);
});

Deno.test("a record whose part is neither stored nor carried is refused", async () => {
  await using fixture = await openTestStore();
  const { tools: _t, identity: _i, skills: _s, ...record } = TEST_RUN_CONFIG;
  const [toolSchemas] = splitRunConfig(fixture.store.db.connection, TEST_RUN_CONFIG).newParts;
  assert.throws(
    () =>
      fixture.store.db.transaction(() =>
        storeRunConfigParts(fixture.store.db.connection, record, [toolSchemas!])
      ),
    (error) => error instanceof JournalError && error.code === "run_config_part_missing",
  );
  assert.equal(countRows(fixture.store, "run_config_parts"), 0, "the transaction rolled back");
});

import assert from "node:assert/strict";
import type { JournalEvent, ProcessRecord } from "@daedalus/client";
import { backgroundChange, finishedSummary } from "./process_notices.ts";

function record(overrides: Partial<ProcessRecord>): ProcessRecord {
  return {
    processId: "prc_01J0000000000000000000000",
    threadId: "thr_01J0000000000000000000000",
    runId: "run_01J0000000000000000000000",
    itemId: "itm_01J0000000000000000000000",
    command: "npm test",
    cwd: "/w",
    state: "running",
    pid: 42,
    exitCode: null,
    errorCode: null,
    background: true,
    pty: false,
    startedAt: "2026-11-30T00:00:00.000Z",
    finishedAt: null,
    ...overrides,
  };
}

function event(process: ProcessRecord): JournalEvent {
  return { type: "process.recorded", seq: 7, payload: { process } } as unknown as JournalEvent;
}

Deno.test("backgroundChange reads starts and ends of background commands only", () => {
  assert.equal(backgroundChange(event(record({})))?.kind, "started");
  const done = backgroundChange(event(record({ state: "exited", exitCode: 0 })));
  assert.equal(done?.kind, "finished");
  assert.equal(backgroundChange(event(record({ background: false, state: "exited" }))), null);
  assert.equal(
    backgroundChange({ type: "run.settled", seq: 1, payload: {} } as unknown as JournalEvent),
    null,
  );
});

Deno.test("finishedSummary says failed for a non-zero exit, a stop or an error", () => {
  assert.equal(finishedSummary(record({ state: "exited", exitCode: 0 })).failed, false);
  assert.equal(finishedSummary(record({ state: "exited", exitCode: 2 })).failed, true);
  assert.equal(finishedSummary(record({ state: "terminated" })).failed, true);
  assert.equal(
    finishedSummary(record({ state: "exited", exitCode: 0, errorCode: "spawn_failed" })).failed,
    true,
  );
});

Deno.test("finishedSummary shortens long commands", () => {
  const summary = finishedSummary(record({ command: "x".repeat(200), state: "exited" }));
  assert.equal(summary.command.length, 80);
  assert.ok(summary.command.endsWith("…"));
});

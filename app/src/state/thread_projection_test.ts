import assert from "node:assert/strict";
import type { JournalEvent, Thread } from "@daedalus/client";
import { applyThreadEvents, applyThreadList, emptyThreads } from "./thread_projection.ts";

const T1 = "thread_1";
const TS = "2026-10-01T10:00:00.000Z";

function thread(id: string, over: Partial<Thread> = {}): Thread {
  return {
    id,
    title: id,
    defaultBranchId: "branch_1",
    workspace: null,
    createdAt: TS,
    updatedAt: TS,
    archivedAt: null,
    ...over,
  };
}

function settingsChanged(seq: number, threadId: string, agentId?: string): JournalEvent {
  return {
    seq,
    schemaVersion: 1,
    threadId,
    branchId: null,
    turnId: null,
    runId: null,
    itemId: null,
    timestamp: TS,
    type: "thread.settings_changed",
    payload: { settings: { compaction: null, ...(agentId ? { agentId } : {}) } },
  } as JournalEvent;
}

Deno.test("threads: another client's thread.set_agent rebinds the thread live", () => {
  let state = applyThreadList(emptyThreads(), {
    threads: [thread(T1, { agentId: "build" })],
    snapshotSeq: 1,
  });
  state = applyThreadEvents(state, [settingsChanged(2, T1, "plan")]);
  assert.equal(state.byId[T1]?.agentId, "plan", "the event's binding was not applied");
  assert.equal(state.byId[T1]?.title, T1, "the rest of the thread must stay");
  state = applyThreadEvents(state, [settingsChanged(3, T1)]);
  assert.equal(state.byId[T1]?.agentId, null, "settings without agentId mean none bound");
});

Deno.test("threads: a settings change that keeps the binding, or of an unknown thread, changes nothing", () => {
  const listed = applyThreadList(emptyThreads(), {
    threads: [thread(T1, { agentId: "plan" })],
    snapshotSeq: 1,
  });
  const same = applyThreadEvents(listed, [settingsChanged(2, T1, "plan")]);
  assert.equal(same.byId, listed.byId, "a compaction change rewrote the threads");
  const unknown = applyThreadEvents(listed, [settingsChanged(2, "thread_2", "plan")]);
  assert.equal(unknown.byId, listed.byId, "an unknown thread was added");
});

Deno.test("threads: a binding changed before the snapshot is held and applied after it", () => {
  let state = applyThreadEvents(emptyThreads(), [settingsChanged(6, T1, "explore")]);
  state = applyThreadList(state, { threads: [thread(T1, { agentId: "build" })], snapshotSeq: 5 });
  assert.equal(state.byId[T1]?.agentId, "explore");
});

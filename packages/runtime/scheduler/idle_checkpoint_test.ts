import assert from "node:assert/strict";
import { checkpoint, createThread, type StateDatabase, StateStore } from "@daedalus/storage";
import { waitUntil } from "../_test_wait.ts";
import { IdleCheckpointer } from "./idle_checkpoint.ts";

/** A real state.db with a few commits' worth of WAL, and a checkpointer over it. */
async function withStore(
  fn: (
    setup: { store: StateStore; checkpointer: IdleCheckpointer; state: { idle: boolean } },
  ) => Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-idle-checkpoint-" });
  const store = StateStore.open(`${dir}/state.db`, { walAutocheckpointPages: 4000 });
  const state = { idle: true };
  const checkpointer = new IdleCheckpointer({
    db: store.db,
    idle: () => state.idle,
    minCommits: 3,
  });
  try {
    for (let i = 0; i < 3; i++) {
      await createThread(store, { title: `t${i}`, workspacesRoot: `${dir}/ws` });
    }
    await fn({ store, checkpointer, state });
  } finally {
    checkpointer.close();
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Frames in the WAL not yet copied into the database file. */
function uncheckpointed(store: StateStore): number {
  const result = checkpoint(store.db, "PASSIVE");
  return result.walFrames - result.checkpointedFrames;
}

/** Lets the checkpointer's zero-delay timer run. */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

Deno.test("the WAL is checkpointed between Runs once enough was committed, not synchronously", async () => {
  await withStore(async ({ store, checkpointer }) => {
    const wal = () => Deno.statSync(`${store.db.path}-wal`).size;
    assert.ok(wal() > 0, "the commits are in the WAL");
    checkpointer.noteCommit();
    checkpointer.noteCommit();
    checkpointer.runsFinished();
    await nextTurn();
    assert.equal(checkpointer.checkpoints, 0, "2 commits are under the threshold of 3");
    checkpointer.noteCommit();
    checkpointer.runsFinished();
    assert.equal(checkpointer.checkpoints, 0, "not inside the settling Run's turn");
    await waitUntil("the checkpoint", () => checkpointer.checkpoints === 1);
    assert.equal(uncheckpointed(store), 0, "every frame is in the database file");
    checkpointer.runsFinished();
    await nextTurn();
    assert.equal(checkpointer.checkpoints, 1, "nothing committed since: no second one");
  });
});

Deno.test("a Run that started before the checkpoint ran puts it off to the next idle moment", async () => {
  await withStore(async ({ checkpointer, state }) => {
    for (let i = 0; i < 3; i++) checkpointer.noteCommit();
    checkpointer.runsFinished();
    state.idle = false;
    await nextTurn();
    assert.equal(checkpointer.checkpoints, 0);
    state.idle = true;
    checkpointer.runsFinished();
    await waitUntil("the checkpoint", () => checkpointer.checkpoints === 1);
  });
});

Deno.test("close cancels a pending checkpoint", async () => {
  await withStore(async ({ checkpointer }) => {
    for (let i = 0; i < 3; i++) checkpointer.noteCommit();
    checkpointer.runsFinished();
    checkpointer.close();
    checkpointer.runsFinished();
    await nextTurn();
    assert.equal(checkpointer.checkpoints, 0);
  });
});

Deno.test("a failed checkpoint is reported and tried again at the next idle moment", async () => {
  const reported: unknown[] = [];
  let fail = true;
  const db = {
    isOpen: true,
    inTransaction: false,
    connection: {
      prepare: () => {
        if (fail) throw new Error("disk I/O error");
        return { get: () => ({ busy: 0, log: 0, checkpointed: 0 }) };
      },
    },
  } as unknown as StateDatabase;
  const checkpointer = new IdleCheckpointer({
    db,
    idle: () => true,
    minCommits: 1,
    report: (error) => reported.push(error),
  });
  try {
    checkpointer.noteCommit();
    checkpointer.runsFinished();
    await waitUntil("the report", () => reported.length === 1);
    assert.match(String(reported[0]), /disk I\/O error/);
    fail = false;
    checkpointer.runsFinished();
    await waitUntil("the checkpoint", () => checkpointer.checkpoints === 1);
  } finally {
    checkpointer.close();
  }
});

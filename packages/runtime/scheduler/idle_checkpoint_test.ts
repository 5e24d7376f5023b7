import assert from "node:assert/strict";
import { checkpoint, createThread, StateStore } from "@daedalus/storage";
import { IdleCheckpointer } from "./idle_checkpoint.ts";

Deno.test("the WAL is checkpointed once enough was committed, then not until more is", async () => {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-idle-checkpoint-" });
  const store = StateStore.open(`${dir}/state.db`, { walAutocheckpointPages: 4000 });
  try {
    const checkpointer = new IdleCheckpointer(store.db, 3);
    for (let i = 0; i < 3; i++) {
      await createThread(store, { title: `t${i}`, workspacesRoot: `${dir}/ws` });
    }
    const uncheckpointed = () => {
      const result = checkpoint(store.db, "PASSIVE");
      return result.walFrames - result.checkpointedFrames;
    };
    checkpointer.noteCommit();
    checkpointer.noteCommit();
    checkpointer.checkpointIfDue();
    assert.equal(checkpointer.checkpoints, 0, "2 commits are under the threshold of 3");
    checkpointer.noteCommit();
    checkpointer.checkpointIfDue();
    assert.equal(checkpointer.checkpoints, 1);
    assert.equal(uncheckpointed(), 0, "every frame is in the database file");
    checkpointer.checkpointIfDue();
    assert.equal(checkpointer.checkpoints, 1, "nothing committed since: no second one");
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failed checkpoint throws and keeps its count, so the next idle moment tries again", () => {
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
  } as unknown as Parameters<typeof checkpoint>[0];
  const checkpointer = new IdleCheckpointer(db, 1);
  checkpointer.noteCommit();
  assert.throws(() => checkpointer.checkpointIfDue(), /disk I\/O error/);
  assert.equal(checkpointer.checkpoints, 0);
  fail = false;
  checkpointer.checkpointIfDue();
  assert.equal(checkpointer.checkpoints, 1);
});

import assert from "node:assert/strict";
import type { RunView } from "./projection.ts";
import { justCompleted, justStartedWaiting } from "./run_announcement.ts";

const run = (status: RunView["status"]) => ({ status }) as RunView;

Deno.test("justCompleted: only a Run seen active that is completed now", () => {
  assert.equal(justCompleted("running", run("completed")), true);
  assert.equal(justCompleted("queued", run("completed")), true);
  // Loaded already completed (history): nothing to announce.
  assert.equal(justCompleted(null, run("completed")), false);
  assert.equal(justCompleted("completed", run("completed")), false);
  assert.equal(justCompleted("running", run("failed")), false);
  assert.equal(justCompleted("running", run("running")), false);
  assert.equal(justCompleted("waiting", run("completed")), true, "a waiting Run is active");
});

Deno.test("justStartedWaiting: once per wait, also for a Run first seen waiting", () => {
  assert.equal(justStartedWaiting("running", run("waiting")), true);
  assert.equal(justStartedWaiting(null, run("waiting")), true, "opened while it waits");
  assert.equal(justStartedWaiting("waiting", run("waiting")), false, "said once");
  assert.equal(justStartedWaiting("waiting", run("running")), false);
  assert.equal(justStartedWaiting("running", run("completed")), false);
});

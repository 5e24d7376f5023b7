import assert from "node:assert/strict";
import { type AuxiliaryJob, AuxiliaryQueue } from "./auxiliary_queue.ts";
import { waitUntil } from "../_test_wait.ts";

/** A job that records its start and finishes when the test says so. */
function heldJob(name: string, log: string[], wanted: () => boolean = () => true) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => finish = resolve);
  const job: AuxiliaryJob = {
    kind: "thread_title",
    stillWanted: wanted,
    run: async () => {
      log.push(`${name} start`);
      await done;
      log.push(`${name} end`);
    },
  };
  return { job, finish };
}

Deno.test("jobs take the slot one at a time, first in first out", async () => {
  const queue = new AuxiliaryQueue();
  const log: string[] = [];
  const a = heldJob("a", log);
  const b = heldJob("b", log);
  const c = heldJob("c", log);
  const ran = [queue.enqueue(a.job), queue.enqueue(b.job), queue.enqueue(c.job)];
  await waitUntil("a to start", () => log.includes("a start"));
  assert.deepEqual(log, ["a start"], "b and c wait while a holds the slot");
  assert.equal(queue.waiting, 2);
  c.finish(); // finishing out of order changes nothing: c has not started
  b.finish();
  a.finish();
  assert.deepEqual(await Promise.all(ran), [true, true, true]);
  assert.deepEqual(log, ["a start", "a end", "b start", "b end", "c start", "c end"]);
});

Deno.test("a job no longer wanted when it reaches the slot is dropped without running", async () => {
  const queue = new AuxiliaryQueue();
  const log: string[] = [];
  let titlesOn = true;
  const first = heldJob("first", log);
  const second = heldJob("second", log, () => titlesOn);
  const third = heldJob("third", log);
  const ran = [queue.enqueue(first.job), queue.enqueue(second.job), queue.enqueue(third.job)];
  await waitUntil("the first job to start", () => log.includes("first start"));
  titlesOn = false; // switched off while the second job waited
  first.finish();
  third.finish();
  assert.deepEqual(await Promise.all(ran), [true, false, true]);
  assert.deepEqual(log, ["first start", "first end", "third start", "third end"]);
});

Deno.test("a failing job reports to its caller and frees the slot", async () => {
  const queue = new AuxiliaryQueue();
  const failing = queue.enqueue({
    kind: "memory_refinement",
    stillWanted: () => true,
    run: () => Promise.reject(new Error("provider down")),
  });
  const after = queue.enqueue({
    kind: "thread_title",
    stillWanted: () => true,
    run: async () => {},
  });
  await assert.rejects(failing, /provider down/);
  assert.equal(await after, true, "the next job still runs");
});

Deno.test("close drops waiting jobs and refuses new ones", async () => {
  const queue = new AuxiliaryQueue();
  const log: string[] = [];
  const running = heldJob("running", log);
  const waiting = heldJob("waiting", log);
  const ran = [queue.enqueue(running.job), queue.enqueue(waiting.job)];
  await waitUntil("the first job to start", () => log.includes("running start"));
  queue.close();
  assert.equal(await ran[1], false);
  assert.equal(await queue.enqueue(heldJob("late", log).job), false);
  running.finish();
  assert.equal(await ran[0], true, "the running job is its owner's to stop");
  assert.deepEqual(log, ["running start", "running end"]);
});

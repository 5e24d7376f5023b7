import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { CommitHolds } from "./commit_holds.ts";

const event = (seq: number) => ({ seq }) as unknown as JournalEvent;

function holdsOver() {
  const published: number[] = [];
  const holds = new CommitHolds((events) => published.push(...events.map((e) => e.seq)));
  return { holds, published };
}

Deno.test("a commit made outside any command is published at once", () => {
  const { holds, published } = holdsOver();
  holds.committed([event(1), event(2)]);
  assert.deepEqual(published, [1, 2]);
});

Deno.test("a command's commits wait for its release, later ones of its chain go at once", async () => {
  const { holds, published } = holdsOver();
  const { running, release } = holds.start(async () => {
    holds.committed([event(1)]);
    await Promise.resolve();
    holds.committed([event(2)]); // after an await: still the command's
    return "ok";
  });
  assert.equal(await running, "ok");
  assert.deepEqual(published, [], "nothing before the response is queued");
  release();
  assert.deepEqual(published, [1, 2]);
  release();
  assert.deepEqual(published, [1, 2], "a second release publishes nothing twice");
});

Deno.test("work a command started keeps going after release without being held", async () => {
  const { holds, published } = holdsOver();
  let resume!: () => void;
  const gate = new Promise<void>((resolve) => resume = resolve);
  let background!: Promise<void>;
  const { running, release } = holds.start(() => {
    background = gate.then(() => holds.committed([event(2)]));
    holds.committed([event(1)]);
    return Promise.resolve();
  });
  await running;
  release();
  resume();
  await background;
  assert.deepEqual(published, [1, 2], "the background commit was not held after release");
});

Deno.test("concurrent commands hold only their own commits", async () => {
  const { holds, published } = holdsOver();
  let step!: () => void;
  const first = holds.start(async () => {
    holds.committed([event(1)]);
    await new Promise<void>((resolve) => step = resolve);
    holds.committed([event(3)]);
  });
  const second = holds.start(() => {
    holds.committed([event(2)]);
    return Promise.resolve();
  });
  await second.running;
  holds.committed([event(4)]); // outside both
  assert.deepEqual(published, [4]);
  second.release();
  assert.deepEqual(published, [4, 2], "the second command's commit only");
  step();
  await first.running;
  first.release();
  assert.deepEqual(published, [4, 2, 1, 3]);
});

Deno.test("a command that throws, even before its first await, rejects and can be released", async () => {
  const { holds, published } = holdsOver();
  const command = holds.start((): Promise<void> => {
    holds.committed([event(1)]);
    throw new Error("refused");
  });
  await assert.rejects(command.running, /refused/);
  assert.deepEqual(published, [], "held until the caller releases");
  command.release();
  assert.deepEqual(published, [1]);
});

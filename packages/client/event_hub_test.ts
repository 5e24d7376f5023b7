import assert from "node:assert/strict";
import { EventHub } from "./event_hub.ts";

function quietHub(maxHeld?: number) {
  const problems: string[] = [];
  const hub = new EventHub<number>({
    listenerFailed: (error) => problems.push(`listener: ${error}`),
    dropped: (count) => problems.push(`dropped ${count}`),
  }, maxHeld);
  return { hub, problems };
}

Deno.test("values published before any consumer are held for the first one", async () => {
  const { hub } = quietHub();
  hub.publish(1);
  hub.publish(2);
  const iterator = hub.subscribe();
  hub.publish(3);
  hub.end();
  const got: number[] = [];
  for await (const value of iterator) got.push(value);
  assert.deepEqual(got, [1, 2, 3]);
});

Deno.test("every iterator and listener gets every value once, in order", async () => {
  const { hub } = quietHub();
  const a = hub.subscribe();
  const b = hub.subscribe();
  const heard: number[] = [];
  hub.listen((value) => heard.push(value));
  for (const value of [1, 2, 3]) hub.publish(value);
  hub.end();
  const fromA: number[] = [];
  for await (const value of a) fromA.push(value);
  const fromB: number[] = [];
  for await (const value of b) fromB.push(value);
  assert.deepEqual(fromA, [1, 2, 3]);
  assert.deepEqual(fromB, [1, 2, 3]);
  assert.deepEqual(heard, [1, 2, 3]);
});

Deno.test("a pending next() finishes when the hub ends; break unsubscribes", async () => {
  const { hub } = quietHub();
  const iterator = hub.subscribe();
  const pending = iterator.next();
  hub.end();
  assert.deepEqual(await pending, { value: undefined, done: true });

  const other = quietHub().hub;
  other.listen(() => {});
  const sub = other.subscribe();
  other.publish(1);
  for await (const value of sub) {
    assert.equal(value, 1);
    break;
  }
  other.publish(2);
  assert.deepEqual(await sub.next(), { value: undefined, done: true }, "no value after break");
});

Deno.test("a throwing listener is reported and does not stop the others", () => {
  const { hub, problems } = quietHub();
  const heard: number[] = [];
  hub.listen(() => {
    throw new Error("boom");
  });
  hub.listen((value) => heard.push(value));
  hub.publish(7);
  assert.deepEqual(heard, [7]);
  assert.equal(problems.length, 1);
  assert.match(problems[0], /boom/);
});

Deno.test("holding for a first consumer is bounded and reports what it dropped", async () => {
  const { hub, problems } = quietHub(2);
  for (const value of [1, 2, 3]) hub.publish(value);
  assert.deepEqual(problems, ["dropped 1"]);
  const iterator = hub.subscribe();
  hub.end();
  const got: number[] = [];
  for await (const value of iterator) got.push(value);
  assert.deepEqual(got, [2, 3]);
});

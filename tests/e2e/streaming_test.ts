/**
 * Runs streaming to real WebSocket clients of an in-process runtime (real HTTP and
 * WebSocket server on 127.0.0.1:0): fan-out to several clients, steer, cancel, the
 * worker cap under load, idempotent retries, and catching up after a dropped socket.
 */
import assert from "node:assert/strict";
import { createHttpClient, type JournalEvent } from "@daedalus/client";
import { createScriptedProvider, type Provider } from "@daedalus/runtime";
import { startInProcess } from "./_in_process.ts";
import {
  assertDeliveredJournal,
  assertRefused,
  openClient,
  type RecordingClient,
  replayAll,
  settlementsOf,
  turnParams,
  waitUntil,
  withoutAutoTitles,
} from "./_clients.ts";
import { SocketSwitch } from "./_killable_socket.ts";

const isSettled = (runId: string) => (e: JournalEvent) =>
  e.type === "run.settled" && e.runId === runId;

function settledIn(recorder: RecordingClient, runId: string): Promise<JournalEvent> {
  return recorder.waitForEvent(`run ${runId} to settle`, isSettled(runId));
}

function completedItems(events: readonly JournalEvent[], runId: string, kind: string) {
  return events.flatMap((e) => {
    const item = e.payload.item as { kind: string; content: string; status: string } | undefined;
    return e.type === "item.completed" && e.runId === runId && item?.kind === kind ? [item] : [];
  });
}

Deno.test("three clients see a run's text and tool call as the same ordered events", async () => {
  await using rt = await startInProcess();
  await using one = await openClient(rt.url, rt.token);
  await using two = await openClient(rt.url, rt.token);
  await using three = await openClient(rt.url, rt.token);
  const { thread } = await one.client.call("thread.create", { title: "fan-out" });
  const { runId } = await two.client.call("turn.start", turnParams(thread.id, "tool hello"));
  const settlements = await Promise.all([one, two, three].map((c) => settledIn(c, runId)));
  assert.deepEqual(settlements.map((e) => e.payload.status), Array(3).fill("completed"));

  let journal: JournalEvent[] = [];
  for (const [name, recorder] of Object.entries({ one, two, three })) {
    journal = await assertDeliveredJournal(recorder, one.client, `client ${name}`);
  }
  const firstDelta = journal.find((e) => e.type === "item.delta" && e.runId === runId);
  const itsCompletion = journal.find((e) =>
    e.type === "item.completed" && e.itemId !== null && e.itemId === firstDelta?.itemId
  );
  assert.ok(firstDelta && itsCompletion && firstDelta.seq < itsCompletion.seq, "text streamed");
  assert.deepEqual(
    completedItems(journal, runId, "tool_result").map((i) => i.content),
    ["echo: tool hello"],
  );
  assert.deepEqual(
    completedItems(journal, runId, "message").map((i) => i.content),
    ["tool hello", "Answer to: tool hello", "Tool said: echo: tool hello"],
  );
});

Deno.test("steer mid-run: run.steered is journaled and the final answer contains the steer", async () => {
  await using rt = await startInProcess();
  await using recorder = await openClient(rt.url, rt.token);
  const ws = recorder.client;
  const { thread } = await ws.call("thread.create", { title: "steering" });
  const { runId } = await ws.call("turn.start", turnParams(thread.id, "slow tool do X"));
  await recorder.waitForEvent("streaming", (e) => e.type === "item.delta" && e.runId === runId);
  const steer = await ws.call("run.steer", {
    runId,
    expectedRunId: runId,
    content: "steer: also X",
    clientRequestId: "steer-1",
  });
  assert.deepEqual(steer, {
    accepted: true,
    runId,
    clientRequestId: "steer-1",
    status: "received",
  });
  const settled = await settledIn(recorder, runId);
  assert.equal(settled.payload.status, "completed");

  const steered = recorder.events.filter((e) => e.type === "run.steered" && e.runId === runId);
  assert.equal(steered.length, 1, "one run.steered event");
  assert.equal((steered[0].payload.item as { content: string }).content, "steer: also X");
  const answers = completedItems(recorder.events, runId, "message").map((i) => i.content);
  assert.equal(answers.at(-1), "Tool said: echo: slow tool do X (steer: also X)");
  await assertRefused(ws.call("run.steer", { runId, content: "too late" }), "run_not_active");
});

Deno.test("a retried run.steer with the same clientRequestId adds the steer once", async () => {
  // The client README's advice after `connection_lost`: call again with the same
  // clientRequestId. For run.steer that retry must not add the text a second time.
  await using rt = await startInProcess();
  await using recorder = await openClient(rt.url, rt.token);
  const ws = recorder.client;
  const { thread } = await ws.call("thread.create", { title: "steer retry" });
  const { runId } = await ws.call("turn.start", turnParams(thread.id, "slow tool retry"));
  await recorder.waitForEvent("streaming", (e) => e.type === "item.delta" && e.runId === runId);
  const steer = { runId, content: "steer: only once", clientRequestId: "steer-retry" };
  const first = await ws.call("run.steer", steer);
  assert.deepEqual(await ws.call("run.steer", steer), first, "the retry is acknowledged alike");
  await settledIn(recorder, runId);

  const steered = recorder.events.filter((e) => e.type === "run.steered" && e.runId === runId);
  assert.equal(steered.length, 1, `the same steer was journaled ${steered.length} times`);
  const answers = completedItems(recorder.events, runId, "message").map((i) => i.content);
  assert.equal(answers.at(-1), "Tool said: echo: slow tool retry (steer: only once)");
});

Deno.test("cancel mid-run keeps the partial text as cancelled and settles exactly once", async () => {
  await using rt = await startInProcess();
  await using recorder = await openClient(rt.url, rt.token);
  const ws = recorder.client;
  const { thread } = await ws.call("thread.create", { title: "cancelling" });
  const { runId } = await ws.call("turn.start", turnParams(thread.id, "slow story"));
  await waitUntil(
    "two deltas",
    () => recorder.events.filter((e) => e.type === "item.delta" && e.runId === runId).length >= 2,
  );
  const cancel = await ws.call("run.cancel", { runId });
  assert.deepEqual(cancel, { accepted: true, runId, status: "running" });
  const settled = await settledIn(recorder, runId);
  assert.deepEqual([settled.payload.status, settled.payload.reasonCode], [
    "cancelled",
    "cancelled",
  ]);
  const again = await ws.call("run.cancel", { runId });
  assert.equal(again.status, "cancelled");

  const journal = await replayAll(ws);
  assert.equal(settlementsOf(journal, runId).length, 1, "exactly one run.settled");
  const run = (await ws.call("turn.list", { threadId: thread.id })).turns[0].runs[0];
  assert.equal(run.status, "cancelled");
  const answer = run.items.find((i) => i.role === "assistant");
  assert.ok(answer, "the partial answer is kept");
  assert.equal(answer.status, "cancelled");
  const streamed = journal
    .filter((e) => e.type === "item.delta" && e.itemId === answer.id)
    .map((e) => String(e.payload.delta)).join("");
  assert.equal(answer.content, streamed, "the kept text is exactly what was streamed");
  assert.ok(answer.content.startsWith("chunk0 chunk1 "), answer.content);
  assert.ok(!answer.content.includes("chunk19"), "the run stopped before its end");
});

Deno.test("20 threads × 5 turns with 3 workers: all complete, FIFO per thread, ≤ 3 running", async () => {
  // Every model call waits at the gate until all 100 turns are queued, so the pool is
  // full when the work starts and the cap is what limits it.
  const gate = Promise.withResolvers<void>();
  const scripted = createScriptedProvider({ script: () => ({ text: ["a", "b"], delayMs: 1 }) });
  const gated: Provider = {
    id: scripted.id,
    models: scripted.models,
    async *stream(request, signal) {
      await gate.promise;
      yield* scripted.stream(request, signal);
    },
  };
  await using rt = await startInProcess({ workers: 3, provider: gated });
  await using recorder = await openClient(rt.url, rt.token);
  const http = createHttpClient({ url: rt.url, token: rt.token });
  const clients = [recorder.client, http];
  const threads = await Promise.all(
    Array.from(
      { length: 20 },
      (_, t) => clients[t % 2].call("thread.create", { title: `load ${t}` }),
    ),
  );
  const runs = await Promise.all(
    threads.flatMap(({ thread }, t) =>
      Array.from(
        { length: 5 },
        (_, n) => clients[(t + n) % 2].call("turn.start", turnParams(thread.id, `turn ${n}`)),
      )
    ),
  );
  await waitUntil(
    "three runs to start",
    () =>
      recorder.events.filter((e) =>
        e.type === "run.state_changed" && e.payload.status === "running"
      )
        .length >= 3,
  );
  gate.resolve();
  await waitUntil(
    "100 settlements",
    () => recorder.events.filter((e) => e.type === "run.settled").length === 100,
  );

  const journal = await assertDeliveredJournal(recorder, http, "the client");
  const settled = journal.filter((e) => e.type === "run.settled");
  assert.deepEqual(new Set(settled.map((e) => e.payload.status)), new Set(["completed"]));
  assert.deepEqual(new Set(settled.map((e) => e.runId)), new Set(runs.map((r) => r.runId)));

  let running = 0;
  let peak = 0;
  for (const event of journal.filter((e) => e.type === "run.state_changed")) {
    if (event.payload.status === "running") running++;
    else if (event.payload.previousStatus === "running") running--;
    peak = Math.max(peak, running);
  }
  assert.equal(peak, 3, "the three workers ran at once, and never more");

  const seqOf = (type: string, runId: string, status?: string) =>
    journal.find((e) =>
      e.type === type && e.runId === runId && (!status || e.payload.status === status)
    )?.seq ?? Number.NaN;
  for (const { thread } of threads) {
    const queued = journal
      .filter((e) => e.threadId === thread.id && e.type === "run.state_changed")
      .filter((e) => e.payload.status === "queued").map((e) => e.runId ?? "");
    assert.equal(queued.length, 5);
    for (let n = 1; n < queued.length; n++) {
      const started = seqOf("run.state_changed", queued[n], "running");
      const previousSettled = seqOf("run.settled", queued[n - 1]);
      assert.ok(
        started > previousSettled,
        `thread ${thread.id}: run ${n} started at seq ${started} before run ${
          n - 1
        } settled at ${previousSettled}`,
      );
    }
  }
});

Deno.test("retries with the same clientRequestId return the original ids and add no events", async () => {
  await using rt = await startInProcess();
  await using recorder = await openClient(rt.url, rt.token);
  const ws = recorder.client;
  const http = createHttpClient({ url: rt.url, token: rt.token });
  const create = { title: "idempotent", clientRequestId: "create-1" };
  const [first, twin] = await Promise.all([
    ws.call("thread.create", create),
    http.call("thread.create", create),
  ]);
  const thread = first.thread;
  assert.equal(twin.thread.id, thread.id);
  assert.deepEqual(twin.event, first.event, "the retry returns the original thread.created");
  const folders = [];
  for await (const day of Deno.readDir(rt.home.workspacesRoot)) {
    for await (const entry of Deno.readDir(`${rt.home.workspacesRoot}/${day.name}`)) {
      folders.push(`${rt.home.workspacesRoot}/${day.name}/${entry.name}`);
    }
  }
  assert.deepEqual(folders, [thread.workspace?.rootUri], "retries reuse the one managed folder");
  await assertRefused(
    ws.call("thread.create", { title: "something else", clientRequestId: "create-1" }),
    "idempotency_conflict",
  );

  const start = turnParams(thread.id, "hello", { clientRequestId: "turn-1" });
  const [started, retried] = await Promise.all([
    ws.call("turn.start", start),
    http.call("turn.start", start),
  ]);
  assert.deepEqual(retried, started);
  await settledIn(recorder, started.runId);
  const before = withoutAutoTitles(await replayAll(ws));
  assert.deepEqual(await http.call("turn.start", start), started, "a late retry too");
  await assertRefused(
    ws.call("turn.start", { ...start, content: "different" }),
    "idempotency_conflict",
  );
  const after = withoutAutoTitles(await replayAll(ws));
  assert.deepEqual(after, before, "retries and conflicts commit nothing");
  assert.equal(after.filter((e) => e.type === "thread.created").length, 1);
  assert.equal(
    after.filter((e) => e.type === "run.state_changed" && e.payload.status === "queued").length,
    1,
  );
  assert.equal(settlementsOf(after, started.runId).length, 1);
  assert.equal((await ws.call("turn.list", { threadId: thread.id })).turns.length, 1);
  await assertDeliveredJournal(recorder, http, "the client");
});

Deno.test("a client cut off mid-run reconnects and its events equal the journal", async () => {
  await using rt = await startInProcess();
  const http = createHttpClient({ url: rt.url, token: rt.token });
  await using sockets = new SocketSwitch();
  await using watcher = await openClient(rt.url, rt.token, {
    WebSocket: sockets.WebSocket,
    reconnectDelaysMs: Array(400).fill(25),
  });
  const states: string[] = [];
  watcher.client.onStateChange((state) => states.push(state));
  const { thread } = await http.call("thread.create", { title: "flaky network" });
  const { runId } = await http.call("turn.start", turnParams(thread.id, "slow story"));
  const deltas = () =>
    watcher.events.filter((e) => e.type === "item.delta" && e.runId === runId).length;
  await waitUntil("a first delta", () => deltas() >= 1);

  sockets.cut();
  const seenAtCut = watcher.client.lastSeq ?? 0;
  await waitUntil("the journal to move on while the client is cut off", async () => {
    const { latestSeq } = await http.call("event.replay", { afterSeq: 0, limit: 1 });
    return latestSeq >= seenAtCut + 3;
  });
  assert.notEqual(watcher.client.state, "connected");
  sockets.restore();
  await waitUntil("the client to reconnect", () => watcher.client.state === "connected");

  const seenBeforeSecondCut = deltas();
  await waitUntil("another delta", () => deltas() > seenBeforeSecondCut);
  sockets.cut();
  sockets.restore();
  await settledIn(watcher, runId);

  await assertDeliveredJournal(watcher, http, "the reconnected client");
  assert.ok(sockets.refusedAttempts > 0, "it tried while the network was down");
  assert.ok(sockets.sockets.length >= 3, `sockets opened: ${sockets.sockets.length}`);
  assert.equal(states.filter((s) => s === "reconnecting").length, 2, states.join(" → "));
});

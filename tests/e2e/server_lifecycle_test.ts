/**
 * `daedalus serve` as a separate process: the ready line, the WebSocket `initialize`
 * rules, the thread lifecycle over the typed clients, clean stops (`runtime.shutdown`,
 * SIGTERM) and start-up failures (home in use, port in use, bad worker count).
 */
import assert from "node:assert/strict";
import { createHttpClient, type ResultOf } from "@daedalus/client";
import { PROTOCOL_VERSION } from "@daedalus/protocol";
import { TestSocket } from "../../packages/runtime/server/_test_fakes.ts";
import { makeTempHome, runDaedalus, startFixture } from "./_harness.ts";
import { assertRefused, openClient, replayAll, settlementsOf, turnParams } from "./_clients.ts";

Deno.test("serve prints one JSON ready line and nothing else on stdout; runtime.shutdown exits 0", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const { child, port } = server;
  assert.deepEqual(server.ready, {
    ready: true,
    url: `http://127.0.0.1:${port}/`,
    port,
    home: home.home,
    pid: child.process.pid,
  });
  assert.ok(port > 0, "port 0 must be replaced by the bound port");
  assert.deepEqual(await (await fetch(`${server.url}health`)).json(), { ok: true });

  await using recorder = await openClient(server.url, await server.token());
  const { thread } = await recorder.client.call("thread.create", { title: "chatty" });
  const { runId } = await recorder.client.call("turn.start", turnParams(thread.id, "tool hello"));
  await recorder.waitForEvent(
    "the run to settle",
    (e) => e.type === "run.settled" && e.runId === runId,
  );

  assert.deepEqual(await recorder.client.call("runtime.shutdown", {}), { accepted: true });
  const status = await child.exit();
  assert.equal(status.code, 0, `runtime.shutdown should exit 0\n${child.describe()}`);
  assert.equal(
    child.stdout,
    `${JSON.stringify(server.ready)}\n`,
    "stdout must hold exactly the ready line, with nothing printed after it",
  );
  assert.match(child.stderr, /Daedalus stopped\./);
});

interface WireReply {
  id: number;
  result?: { protocolVersion: number; latestSeq: number; server: { name: string } };
  error?: { code: number; data?: { reasonCode?: string } };
}

Deno.test("initialize on a raw WebSocket: required first, once, in a supported version", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const token = await server.token();
  const { event } = await createHttpClient({ url: server.url, token })
    .call("thread.create", { title: "before the socket" });

  const socket = await TestSocket.open(`ws://127.0.0.1:${server.port}/ws`, {
    headers: { authorization: `Bearer ${token}` },
    protocols: ["daedalus.rpc.v1"],
  });
  try {
    const ask = async (id: number, method: string, params: Record<string, unknown>) =>
      await socket.request(id, method, params) as WireReply;
    const early = await ask(1, "thread.list", {});
    assert.equal(early.error?.code, -32000, `a call before initialize: ${JSON.stringify(early)}`);
    assert.equal(early.error?.data?.reasonCode, "not_initialized");

    const future = await ask(2, "initialize", { protocolVersion: PROTOCOL_VERSION + 1 });
    assert.equal(future.error?.code, -32001, `a wrong version: ${JSON.stringify(future)}`);
    assert.equal(future.error?.data?.reasonCode, "unsupported_protocol_version");

    const first = await ask(3, "initialize", { protocolVersion: PROTOCOL_VERSION });
    assert.equal(first.error, undefined, JSON.stringify(first));
    assert.equal(first.result?.protocolVersion, PROTOCOL_VERSION);
    assert.equal(first.result?.latestSeq, event.seq, "latestSeq names the newest committed event");

    const second = await ask(4, "initialize", { protocolVersion: PROTOCOL_VERSION });
    assert.equal(second.error?.code, -32002, `initialize twice: ${JSON.stringify(second)}`);
    assert.equal(second.error?.data?.reasonCode, "already_initialized");

    const listed = await ask(5, "thread.list", {}) as { result?: { threads: unknown[] } };
    assert.equal(listed.result?.threads.length, 1, "the initialized connection still works");
  } finally {
    await socket.close();
  }
});

Deno.test("thread lifecycle: create, rename, archive, unarchive, get and list with cursors", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const token = await server.token();
  const rpc = createHttpClient({ url: server.url, token });
  await using recorder = await openClient(server.url, token);
  const ws = recorder.client;

  const threads = [];
  for (const title of ["alpha", "beta", "gamma", "delta", "epsilon"]) {
    const created = await ws.call("thread.create", { title });
    assert.equal(created.event.type, "thread.created");
    assert.equal(created.thread.title, title);
    threads.push(created.thread);
  }
  const beta = threads[1];

  // A user title also keeps automatic titling away from beta's run below.
  const renamed = await ws.call("thread.rename", { threadId: beta.id, title: "Beta, renamed" });
  assert.equal(renamed.changed, true);
  assert.equal(renamed.event?.type, "thread.renamed");
  assert.equal((await rpc.call("thread.get", { threadId: beta.id })).thread.title, "Beta, renamed");

  const archived = await ws.call("thread.archive", { threadId: beta.id });
  assert.equal(archived.changed, true);
  assert.equal(archived.event?.type, "thread.archived");
  assert.ok(archived.thread.archivedAt, "an archived thread has archivedAt");
  const again = await ws.call("thread.archive", { threadId: beta.id });
  assert.deepEqual([again.changed, again.event], [false, null], "archiving twice changes nothing");
  await assertRefused(ws.call("turn.start", turnParams(beta.id, "hello")), "thread_archived");
  assert.ok((await rpc.call("thread.get", { threadId: beta.id })).thread.archivedAt);

  const active = await rpc.call("thread.list", { limit: 100 });
  assert.ok(!active.threads.some((t) => t.id === beta.id), "the active catalog hides it");
  const shelf = await rpc.call("thread.list", { archived: true });
  assert.deepEqual(shelf.threads.map((t) => t.id), [beta.id]);

  const back = await ws.call("thread.unarchive", { threadId: beta.id });
  assert.equal(back.changed, true);
  assert.equal(back.event?.type, "thread.unarchived");
  assert.equal(back.thread.archivedAt, null);
  const { runId } = await ws.call("turn.start", turnParams(beta.id, "hello again"));
  const settled = await recorder.waitForEvent(
    "the run on the unarchived thread to settle",
    (e) => e.type === "run.settled" && e.runId === runId,
  );
  assert.equal(settled.payload.status, "completed");

  const all = (await rpc.call("thread.list", { limit: 100 })).threads.map((t) => t.id);
  assert.equal(all.length, 5);
  const paged: string[] = [];
  let cursor: string | null = null;
  for (let page = 0;; page++) {
    const listed: ResultOf<"thread.list"> = await ws.call("thread.list", { limit: 2, cursor });
    paged.push(...listed.threads.map((t) => t.id));
    assert.equal(listed.hasMore, listed.nextCursor !== null, `page ${page}`);
    if (!listed.hasMore) break;
    assert.ok(page < 5, "paging never ends");
    cursor = listed.nextCursor;
  }
  assert.deepEqual(paged, all, "pages of 2 hold the catalog once each, in order");

  const changes = recorder.events.filter((e) => e.type.startsWith("thread.")).map((e) => e.type);
  assert.deepEqual(changes, [
    ...Array(5).fill("thread.created"),
    "thread.renamed",
    "thread.archived",
    "thread.unarchived",
  ]);
});

Deno.test("archive is refused with thread_busy while the thread has a run", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recorder = await openClient(server.url, await server.token());
  const ws = recorder.client;
  const { thread } = await ws.call("thread.create", { title: "busy" });
  const { runId } = await ws.call("turn.start", turnParams(thread.id, "slow story"));
  await recorder.waitForEvent(
    "the run to be running",
    (e) => e.type === "run.state_changed" && e.runId === runId && e.payload.status === "running",
  );
  await assertRefused(ws.call("thread.archive", { threadId: thread.id }), "thread_busy");
  assert.equal((await ws.call("thread.get", { threadId: thread.id })).thread.archivedAt, null);

  await ws.call("run.cancel", { runId });
  await recorder.waitForEvent(
    "the cancelled run to settle",
    (e) => e.type === "run.settled" && e.runId === runId,
  );
  const archived = await ws.call("thread.archive", { threadId: thread.id });
  assert.equal(archived.changed, true, "once the run settled the thread can be archived");
});

Deno.test("SIGTERM exits 0 after settling the active and queued runs as runtime_shutdown", async () => {
  await using home = await makeTempHome();
  const runIds: string[] = [];
  {
    await using server = await startFixture(home);
    await using recorder = await openClient(server.url, await server.token());
    const ws = recorder.client;
    const { thread } = await ws.call("thread.create", { title: "stopping" });
    for (const content of ["slow first", "slow second"]) {
      runIds.push((await ws.call("turn.start", turnParams(thread.id, content))).runId);
    }
    await recorder.waitForEvent(
      "streaming",
      (e) => e.type === "item.delta" && e.runId === runIds[0],
    );
    server.child.kill("SIGTERM");
    const status = await server.child.exit();
    assert.equal(status.code, 0, `SIGTERM should exit 0\n${server.child.describe()}`);
    assert.match(server.child.stderr, /Daedalus stopped\./);
    for (const runId of runIds) {
      assert.equal(settlementsOf(recorder.events, runId).length, 1, `clients saw ${runId} settle`);
    }
  }
  await using restarted = await startFixture(home);
  const journal = await replayAll(createHttpClient({
    url: restarted.url,
    token: await restarted.token(),
  }));
  for (const runId of runIds) {
    const settlements = settlementsOf(journal, runId);
    assert.equal(settlements.length, 1, `one run.settled for ${runId}`);
    assert.deepEqual(
      [settlements[0].payload.status, settlements[0].payload.reasonCode],
      ["cancelled", "runtime_shutdown"],
    );
  }
});

Deno.test("a second server on the same home fails, naming the home and its lock", async () => {
  await using home = await makeTempHome();
  await using first = await startFixture(home);
  // The second instance waits up to 10 s for the lock before it gives up.
  const second = await runDaedalus(["serve", "--port", "0"], home.env());
  assert.notEqual(second.status.code, 0, `the second server started\n${second.stderr}`);
  assert.ok(second.stderr.includes(home.home), `the message names the home:\n${second.stderr}`);
  assert.match(second.stderr, /runtime\.lock|home_locked/);
  assert.equal(second.stdout, "", "no ready line from a server that did not start");
  const rpc = createHttpClient({ url: first.url, token: await first.token() });
  assert.deepEqual((await rpc.call("thread.list", {})).threads, [], "the first still serves");
});

Deno.test("a port already in use stops start-up with a message naming the address", async () => {
  await using home = await makeTempHome();
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const { port } = taken.addr;
    const run = await runDaedalus(["serve", "--port", String(port)], home.env());
    assert.notEqual(run.status.code, 0, `serve started on a taken port\n${run.stderr}`);
    assert.ok(run.stderr.includes(`127.0.0.1:${port}`), `names the address:\n${run.stderr}`);
    assert.match(run.stderr, /in use/);
    assert.equal(run.stdout, "");
  } finally {
    taken.close();
  }
});

Deno.test("DAEDALUS_AGENT_WORKERS=9 stops start-up naming the value and the range 1–8", async () => {
  await using home = await makeTempHome();
  const run = await runDaedalus(
    ["serve", "--port", "0"],
    home.env({ DAEDALUS_AGENT_WORKERS: "9" }),
  );
  assert.notEqual(run.status.code, 0, `serve accepted 9 workers\n${run.stdout}`);
  assert.match(run.stderr, /DAEDALUS_AGENT_WORKERS/);
  assert.match(run.stderr, /\b9\b/);
  assert.match(run.stderr, /\b1\b[^\n]*\b8\b/, `names the range 1–8:\n${run.stderr}`);
  assert.equal(run.stdout, "");
});

/**
 * `daedalus run` while `daedalus serve` holds the home: the command attaches to that
 * runtime over its WebSocket API (address from `<home>/runtime.json`, token from
 * `auth.json`) instead of failing on the lock, so a client of the runtime (the web app)
 * sees the Run as it happens; `threads` and `show` read through it too, and `--agent` is
 * checked against and bound by that runtime.
 */
import assert from "node:assert/strict";
import { startShippedRuntime } from "./_harness.ts";
import { openClient } from "./_clients.ts";
import { daedalus, makeCliHome } from "./_cli.ts";

Deno.test("run attaches to the runtime holding the home; its event stream carries the Run", async () => {
  await using cli = await makeCliHome();
  // No titles or memory refinement: their model calls would take the scripted answer.
  await using server = await startShippedRuntime(cli.home, {
    DAEDALUS_THREAD_TITLES: "0",
    DAEDALUS_MEMORY_REFINEMENT: "0",
  });
  const address = JSON.parse(await Deno.readTextFile(`${cli.home.home}/runtime.json`));
  assert.equal(address.url, server.url, "runtime.json names the serving runtime");
  await using watcher = await openClient(server.url, await server.token());

  cli.fake.enqueue(
    { step: { toolCalls: [{ id: "c1", name: "read", arguments: { path: "notes.txt" } }] } },
    { step: { text: "Attached answer." } },
  );
  const run = await daedalus(
    ["run", "read notes.txt", "--json", "--workspace", cli.project],
    cli.home.env(),
  );
  assert.equal(run.code, 0, run.describe());
  const summary = JSON.parse(run.stdout.trimEnd().split("\n").at(-1)!);
  assert.equal(summary.status, "completed");
  assert.doesNotMatch(run.stderr, /was lost/, "closing the session is not a lost connection");
  const settled = await watcher.waitForEvent(
    "the attached Run's settlement on the runtime's stream",
    (event) => event.type === "run.settled" && event.runId === summary.runId,
  );
  assert.equal(settled.payload.status, "completed");
  assert.ok(
    watcher.events.some((event) =>
      event.type === "item.delta" && event.runId === summary.runId &&
      event.payload.delta.includes("Attached answer")
    ),
    "the answer streamed to the runtime's other clients",
  );

  const threads = await daedalus(["threads"], cli.home.env());
  assert.equal(threads.code, 0, threads.describe());
  assert.match(
    threads.stdout,
    new RegExp(`^${summary.threadId}  \\S+  read notes\\.txt$`, "m"),
    "the attached thread is named after the prompt, not left untitled",
  );
  const show = await daedalus(["show", summary.threadId], cli.home.env());
  assert.equal(show.code, 0, show.describe());
  assert.match(show.stdout, /Attached answer\./);
  assert.equal(server.child.exited, false, "the runtime keeps running");
});

Deno.test("attached: --agent binds the thread on the serving runtime; an unknown id exits 2", async () => {
  await using cli = await makeCliHome();
  await using server = await startShippedRuntime(cli.home, {
    DAEDALUS_THREAD_TITLES: "0",
    DAEDALUS_MEMORY_REFINEMENT: "0",
  });
  await using watcher = await openClient(server.url, await server.token());
  // Saved on the runtime only: `run` must ask it, not read config.yaml itself.
  await watcher.client.call("agent.save", {
    profile: {
      id: "reviewer",
      name: "Reviewer",
      permission: "read_only",
      tools: ["read", "grep"],
      memory: { recall: false, memoryFile: false },
    },
  });
  const unknown = await daedalus(["run", "hi", "--agent", "nope"], cli.home.env());
  assert.equal(unknown.code, 2, unknown.describe());
  assert.match(unknown.stderr, /--agent nope: no such agent profile; profiles: .*reviewer/);
  assert.equal((await watcher.client.call("thread.list", {})).threads.length, 0, "no thread");

  cli.fake.enqueue({ step: { text: "Reviewed." } });
  const run = await daedalus(["run", "review", "--agent", "reviewer", "--json"], cli.home.env());
  assert.equal(run.code, 0, run.describe());
  const summary = JSON.parse(run.stdout.trimEnd().split("\n").at(-1)!);
  const { thread } = await watcher.client.call("thread.get", { threadId: summary.threadId });
  assert.equal(thread.agentId, "reviewer", "the attached run bound its thread");
  const tools = ((cli.fake.requests[0]?.body as { tools?: { function: { name: string } }[] })
    ?.tools ?? []).map((tool) => tool.function.name);
  assert.deepEqual(tools.sort(), ["grep", "read"], "the profile's tools, and only those");
});

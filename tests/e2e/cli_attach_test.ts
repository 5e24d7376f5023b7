/**
 * `daedalus run` while `daedalus serve` holds the home: the command attaches to that
 * runtime over its WebSocket API (address from `<home>/runtime.json`, token from
 * `auth.json`) instead of failing on the lock, so a client of the runtime (the web app)
 * sees the Run as it happens; `threads` and `show` read through it too.
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
  assert.match(threads.stdout, new RegExp(`^${summary.threadId}  `));
  const show = await daedalus(["show", summary.threadId], cli.home.env());
  assert.equal(show.code, 0, show.describe());
  assert.match(show.stdout, /Attached answer\./);
  assert.equal(server.child.exited, false, "the runtime keeps running");
});

/**
 * `thread.delete` as a user gets it, with the shipped flags: a thread whose turns wrote a
 * workspace file, left a tool output artifact and a process log is deleted; another
 * client hears `thread.deleted`; reads and the export answer thread_not_found; the
 * thread's files under the home are gone and the workspace file is not; `daedalus
 * storage verify` and `check` pass on the erased journal. Then a crash: SIGKILL right
 * after a deletion, and the files a deletion cut off between commit and removal leaves
 * (re-created here exactly as such a crash leaves them), are gone after a restart.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths } from "@daedalus/storage";
import { makeTempHome, runDaedalus, startFixture, type TempHome } from "./_harness.ts";
import {
  assertRefused,
  openClient,
  type RecordingClient,
  replayAll,
  turnParams,
} from "./_clients.ts";
import {
  deletionManifest,
  threadFileDirs,
  writeManifestSync,
} from "../../packages/runtime/threads/deleted_files.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function settle(
  recording: RecordingClient,
  threadId: string,
  content: string,
  expected = "completed",
) {
  const { runId } = await recording.client.call("turn.start", turnParams(threadId, content));
  const settled = await recording.waitForEvent(
    `the run of "${content.slice(0, 30)}" to settle`,
    (event) => event.type === "run.settled" && event.runId === runId,
  );
  assert.equal(
    settled.payload.status,
    expected,
    `"${content.slice(0, 30)}": ${JSON.stringify(settled.payload)}`,
  );
}

/** A thread in a project folder with a written file, an artifact and a process log. */
async function busyThread(recording: RecordingClient, workspace: string, title: string) {
  const { thread } = await recording.client.call("thread.create", {
    title,
    workspace: { rootUri: workspace },
  });
  await settle(recording, thread.id, `write: ${title}.md written by ${title}`);
  // A grep result well over the 64 KiB artifact limit goes to artifacts/<threadId>; the
  // scripted model's small context window then ends the Run (the artifact is written).
  await settle(
    recording,
    thread.id,
    `call: grep {"pattern":"ordinary","path":"big.txt"}`,
    "failed",
  );
  await settle(recording, thread.id, `bg: echo ${title}-process-output`);
  return thread.id;
}

async function storage(home: TempHome, operation: string) {
  const run = await runDaedalus(["storage", operation, "--home", home.home], home.env());
  return { code: run.status.code, report: JSON.parse(run.stdout.trim()), stderr: run.stderr };
}

Deno.test("spawned: thread.delete erases the thread, its own files go, the workspace and the chain stay", async () => {
  await using home = await makeTempHome();
  const paths = homePaths(home.home);
  const workspace = `${home.workspacesRoot}/project`;
  await Deno.mkdir(workspace);
  await Deno.writeTextFile(
    `${workspace}/big.txt`,
    `ordinary text ${"x".repeat(185)}\n`.repeat(1000),
  );
  let doomed: string;
  let kept: string;
  {
    await using server = await startFixture(home);
    const token = await server.token();
    await using recording = await openClient(server.url, token);
    await using other = await openClient(server.url, token);
    doomed = await busyThread(recording, workspace, "doomed");
    kept = await busyThread(recording, workspace, "kept");
    for (const dir of [paths.artifacts, paths.processes]) {
      assert.ok(await exists(join(dir, doomed)), `${dir}/<thread> exists before the deletion`);
    }

    const deleted = await recording.client.call("thread.delete", {
      threadId: doomed,
      clientRequestId: "e2e-delete-1",
    });
    assert.equal(deleted.threadId, doomed);
    assert.ok(deleted.erasedEvents > 10, `erased ${deleted.erasedEvents} events`);
    const heard = await other.waitForEvent(
      "the other client to hear the deletion",
      (event) => event.type === "thread.deleted" && event.threadId === doomed,
    );
    assert.equal(heard.payload.erasedEvents, deleted.erasedEvents);
    const retry = await recording.client.call("thread.delete", {
      threadId: doomed,
      clientRequestId: "e2e-delete-1",
    });
    assert.deepEqual(retry, deleted, "a retry returns the first answer");

    await assertRefused(
      recording.client.call("thread.get", { threadId: doomed }),
      "thread_not_found",
    );
    await assertRefused(
      recording.client.call("turn.list", { threadId: doomed }),
      "thread_not_found",
    );
    const listed = await recording.client.call("thread.list", {});
    assert.deepEqual(listed.threads.map((t) => t.id), [kept], "only the kept thread is listed");
    const base = server.url.endsWith("/") ? server.url : `${server.url}/`;
    const exported = await fetch(`${base}api/threads/${doomed}/export?format=jsonl`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(exported.status, 404);
    assert.equal((await exported.json()).error.code, "thread_not_found");

    for (const dir of [paths.artifacts, paths.processes]) {
      assert.equal(await exists(join(dir, doomed)), false, `${dir}/<thread> is left`);
      assert.ok(await exists(join(dir, kept)), `the other thread's ${dir} folder must stay`);
    }
    assert.equal(
      await Deno.readTextFile(`${workspace}/doomed.md`),
      "written by doomed\n",
      "a workspace file the thread wrote is never touched",
    );
    assert.deepEqual(await Array.fromAsync(Deno.readDir(paths.deletions)), []);
    // Nothing the runtime answers holds the erased text any more.
    const everything = JSON.stringify(await replayAll(recording.client));
    for (const text of ["doomed-process-output", "written by doomed"]) {
      assert.equal(everything.includes(text), false, `event.replay still returns "${text}"`);
    }
    assert.ok(everything.includes("kept-process-output"), "the kept thread's events stay");

    // SIGKILL right after another deletion: the restart leaves nothing of it behind.
    const second = await busyThread(recording, workspace, "second");
    await recording.client.call("thread.delete", { threadId: second, clientRequestId: "e2e-2" });
    server.child.kill("SIGKILL");
    await server.child.exit();
    for (const dir of [paths.artifacts, paths.processes]) {
      assert.equal(await exists(join(dir, second)), false, `${dir}/<second> is left`);
    }
  }

  const verify = await storage(home, "verify");
  assert.equal(verify.report.ok, true, `storage verify: ${JSON.stringify(verify.report)}`);
  assert.equal(verify.code, 0);
  const check = await storage(home, "check");
  assert.equal(check.report.ok, true, `storage check: ${JSON.stringify(check.report)}`);

  // The state a crash between the commit and the removal leaves: the deletion committed,
  // the manifest written, the files still there.
  const dirs = threadFileDirs(paths);
  const orphans = [
    join(paths.artifacts, doomed, "left.txt"),
    join(paths.processes, doomed, "x.log"),
  ];
  for (const file of orphans) {
    await Deno.mkdir(join(file, ".."), { recursive: true });
    await Deno.writeTextFile(file, "left by a crash");
  }
  writeManifestSync(dirs, deletionManifest(dirs, doomed, []));
  {
    await using restarted = await startFixture(home);
    await using recording = await openClient(restarted.url, await restarted.token());
    await assertRefused(
      recording.client.call("thread.get", { threadId: doomed }),
      "thread_not_found",
    );
    for (const file of orphans) {
      assert.equal(await exists(file), false, `${file} survived the restart`);
    }
    assert.equal(await exists(join(paths.artifacts, doomed)), false);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(paths.deletions)), []);
    assert.ok(await exists(join(paths.artifacts, kept)), "the kept thread's files stay");
    const { threads } = await recording.client.call("thread.list", {});
    assert.deepEqual(threads.map((t) => t.id), [kept]);
  }
});

Deno.test("spawned: a thread with a running Run is refused with thread_busy", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  const { thread } = await recording.client.call("thread.create", { title: "busy" });
  const { runId } = await recording.client.call("turn.start", turnParams(thread.id, "slow essay"));
  await recording.waitForEvent(
    "the run to start",
    (event) =>
      event.type === "run.state_changed" && event.runId === runId &&
      event.payload.status === "running",
  );
  await assertRefused(
    recording.client.call("thread.delete", { threadId: thread.id, clientRequestId: "busy-1" }),
    "thread_busy",
  );
  const { thread: still } = await recording.client.call("thread.get", { threadId: thread.id });
  assert.equal(still.id, thread.id, "a refused deletion changes nothing");
  await recording.client.call("run.cancel", { runId });
  await recording.waitForEvent(
    "the run to settle",
    (event) => event.type === "run.settled" && event.runId === runId,
  );
  await recording.client.call("thread.delete", { threadId: thread.id, clientRequestId: "busy-2" });
});

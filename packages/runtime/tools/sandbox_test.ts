/**
 * The permission sandbox itself: Deno refuses what a narrowed mode does not allow,
 * inside the Worker, whatever the runtime's own checks would have said.
 * (Run with --unstable-worker-options, as the test task does.)
 */
import assert from "node:assert/strict";
import { SANDBOX_UNAVAILABLE, sandboxPermissions, ToolSandboxes } from "./sandbox.ts";
import { waitUntil, within } from "../_test_wait.ts";

Deno.test("a read_only sandbox reads the workspace and Deno refuses writes and outside reads", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus-sandbox-" });
  const artifacts = await Deno.makeTempDir({ prefix: "daedalus-artifacts-" });
  await Deno.writeTextFile(`${root}/a.txt`, "inside\n");
  const sandboxes = new ToolSandboxes(artifacts, () => []);
  const call = {
    threadId: "thread_" + "1".repeat(32),
    runId: "run_" + "1".repeat(32),
    itemId: "item_" + "1".repeat(32),
    workspaceRoot: root,
    signal: new AbortController().signal,
  };
  try {
    const read = await sandboxes.run("read_only", "read", { path: "a.txt" }, call);
    assert.ok(!read.result.isError, read.result.content);
    assert.match(read.result.content, /inside/);
    const write = await sandboxes.run("read_only", "write", { path: "b.txt", content: "x" }, call);
    assert.equal(write.result.errorCode, "permission_denied", write.result.content);
    await assert.rejects(() => Deno.stat(`${root}/b.txt`), Deno.errors.NotFound);
    const outside = await sandboxes.run("read_only", "read", { path: "/etc/hostname" }, call);
    assert.equal(outside.result.errorCode, "permission_denied", outside.result.content);
    const writer = await sandboxes.run(
      "workspace_write",
      "write",
      { path: "c.txt", content: "ok" },
      call,
    );
    assert.ok(!writer.result.isError, writer.result.content);
    assert.equal(await Deno.readTextFile(`${root}/c.txt`), "ok");
    assert.equal(writer.facts.fileChanges.length, 1, "facts come back from the sandbox");
    await sandboxes.run("read_only", "list", { path: "." }, call);
    assert.equal(sandboxes.size, 2, "one warm sandbox per (mode, workspace), reused");
  } finally {
    sandboxes.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(artifacts, { recursive: true });
  }
});

function callIn(root: string, signal = new AbortController().signal) {
  return {
    threadId: "thread_" + "2".repeat(32),
    runId: "run_" + "2".repeat(32),
    itemId: "item_" + "2".repeat(32),
    workspaceRoot: root,
    signal,
  };
}

Deno.test("a read_only Worker refuses an outside read even with the tools' own seal bypassed", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "daedalus-wall-" }));
  const root = `${base}/ws`;
  await Deno.mkdir(root);
  await Deno.mkdir(`${base}/artifacts`);
  await Deno.writeTextFile(`${base}/secret.txt`, "wall-secret\n");
  // The real Worker module with the real read_only permissions, but told it runs in
  // full_access: the tools' sealed checks are off, only Deno's permissions are left.
  const worker = new Worker(new URL("./sandbox_worker.ts", import.meta.url), {
    type: "module",
    deno: { permissions: sandboxPermissions("read_only", [root], `${base}/artifacts`) },
  });
  try {
    const answer = new Promise<{ result: { content: string; errorCode?: string } }>((resolve) => {
      worker.onmessage = (event) => resolve(event.data);
    });
    worker.postMessage({
      type: "run",
      id: 1,
      toolId: "read",
      args: { path: `${base}/secret.txt` },
      protectedValues: [],
      context: {
        threadId: "t",
        runId: "r",
        itemId: "i",
        workspaceRoot: root,
        artifactsRoot: `${base}/artifacts`,
        executionPolicy: "full_access",
        protectedFiles: [],
      },
    });
    const { result } = await answer;
    assert.equal(result.errorCode, "permission_denied", result.content);
    assert.ok(!result.content.includes("wall-secret"));
  } finally {
    worker.terminate();
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("a sandbox that cannot start fails the call visibly, and the next call tries again", async () => {
  await withTestWorker("broken_worker.js", "daedalus-broken-", async (sandboxes, root) => {
    const first = await within(
      sandboxes.run("read_only", "read", { path: "a" }, callIn(root)),
      "the call on a broken sandbox to settle",
    );
    assert.equal(first.result.errorCode, SANDBOX_UNAVAILABLE, first.result.content);
    assert.match(first.result.content, /sandbox failed: .*cannot start/);
    assert.equal(sandboxes.size, 0, "the dead Worker is not kept");
    const second = await within(
      sandboxes.run("read_only", "read", { path: "a" }, callIn(root)),
      "the second call on a broken sandbox to settle",
    );
    assert.equal(second.result.errorCode, SANDBOX_UNAVAILABLE);
  });
});

Deno.test("cancelling a call on a stuck Worker settles it and replaces the Worker", async () => {
  await withTestWorker("stuck_worker.js", "daedalus-stuck-", async (sandboxes, root) => {
    const controller = new AbortController();
    const running = sandboxes.run(
      "read_only",
      "read",
      { path: "a" },
      callIn(root, controller.signal),
    );
    const other = sandboxes.run("read_only", "read", { path: "b" }, callIn(root));
    await waitUntil(
      "both calls to be posted to the (stuck) Worker",
      () => sandboxes.waiting === 2,
      () => `waiting: ${sandboxes.waiting}`,
    );
    controller.abort();
    const cancelled = await within(running, "the cancelled call to settle");
    assert.equal(cancelled.result.errorCode, "cancelled");
    // The Worker never answers the cancel: after the grace period it is terminated, its
    // other call fails (retryable) and the sandbox is gone, to be started afresh.
    const failed = await within(other, "the stuck Worker's other call to settle");
    assert.equal(failed.result.errorCode, "tool_failed", failed.result.content);
    assert.equal(sandboxes.size, 0);
  });
});

Deno.test("a call made right after a cancel goes to a fresh Worker, not the stuck one", async () => {
  await withTestWorker(
    "stuck_on_one_path_worker.js",
    "daedalus-after-cancel-",
    async (sandboxes, root) => {
      const controller = new AbortController();
      const stuck = sandboxes.run(
        "read_only",
        "read",
        { path: "stuck" },
        callIn(root, controller.signal),
      );
      await waitUntil("the call to be posted", () => sandboxes.waiting === 1);
      controller.abort();
      assert.equal((await within(stuck, "the cancelled call")).result.errorCode, "cancelled");
      // The next Run's call, before the stuck Worker's grace period is over.
      const next = await within(
        sandboxes.run("read_only", "read", { path: "b" }, callIn(root)),
        "the call after the cancel",
      );
      assert.equal(next.result.errorCode, undefined, next.result.content);
      assert.equal(next.result.content, "read b");
      // The stuck Worker is terminated after its grace period; the fresh one stays warm.
      await waitUntil("the stuck Worker to be terminated", () => sandboxes.waiting === 0);
      assert.equal(sandboxes.size, 1);
    },
  );
});

Deno.test("a cancel that lands while the sandbox is still being started settles the call", async () => {
  await withTestWorker("stuck_worker.js", "daedalus-early-cancel-", async (sandboxes, root) => {
    const controller = new AbortController();
    const running = sandboxes.run(
      "read_only",
      "read",
      { path: "a" },
      callIn(root, controller.signal),
    );
    controller.abort(); // before run() got past finding (starting) the Worker
    const outcome = await within(running, "the early-cancelled call to settle");
    assert.equal(outcome.result.errorCode, "cancelled");
  });
});

/**
 * Runs a test against sandboxes whose Worker module is one of `testdata/` (broken, stuck),
 * in a temp root; closes them and removes the root afterwards.
 */
async function withTestWorker(
  worker: string,
  prefix: string,
  test: (sandboxes: ToolSandboxes, root: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix });
  const sandboxes = new ToolSandboxes(
    root,
    () => [],
    [],
    new URL(`./testdata/${worker}`, import.meta.url),
  );
  try {
    await test(sandboxes, root);
  } finally {
    sandboxes.close();
    await Deno.remove(root, { recursive: true });
  }
}

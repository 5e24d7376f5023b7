/**
 * The permission sandbox itself: Deno refuses what a narrowed mode does not allow,
 * inside the Worker, whatever the runtime's own checks would have said.
 * (Run with --unstable-worker-options, as the test task does.)
 */
import assert from "node:assert/strict";
import { ToolSandboxes } from "./sandbox.ts";

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

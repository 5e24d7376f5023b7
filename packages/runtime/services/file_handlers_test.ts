import assert from "node:assert/strict";
import { parseResult } from "@daedalus/protocol";
import {
  activateRun,
  appendFileChange,
  settleToolCall,
  startItem,
  startTurn,
} from "@daedalus/storage";
import { openRuntimeCore } from "../runtime_core.ts";
import { testRunConfig } from "../_test_run_config.ts";

async function withCore(
  fn: (
    call: (m: string, p: unknown) => Promise<Record<string, unknown>>,
    core: Awaited<ReturnType<typeof openRuntimeCore>>,
  ) => Promise<void>,
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-files-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
  });
  const call = async (method: string, params: unknown) => {
    const outcome = await core.dispatcher.dispatch(method, params, { id: "t", transport: "http" });
    return parseResult(method as "file.preview", outcome.result) as unknown as Record<
      string,
      unknown
    >;
  };
  try {
    await fn(call, core);
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("file.preview pages a workspace file bound to its revision", async () => {
  await withCore(async (call) => {
    const { thread } = await call("thread.create", { title: "f" }) as {
      thread: { id: string; workspace: { rootUri: string } };
    };
    const root = thread.workspace.rootUri;
    const lines = Array.from({ length: 2_500 }, (_, i) => `line ${i + 1}\n`).join("");
    await Deno.writeTextFile(`${root}/big.txt`, lines);
    const first = await call("file.preview", { threadId: thread.id, path: "big.txt" });
    assert.deepEqual([
      first.status,
      first.lineStart,
      first.lineEnd,
      first.nextOffset,
      first.truncated,
    ], ["text", 1, 2000, 2001, true]);
    const second = await call("file.preview", {
      threadId: thread.id,
      path: "big.txt",
      offset: 2001,
      expectedRevision: first.revision,
    });
    assert.deepEqual([second.lineStart, second.lineEnd, second.nextOffset], [2001, 2500, null]);
    assert.match(String(second.content), /^line 2001\n/);
    await Deno.writeTextFile(`${root}/big.txt`, "changed\n");
    const stale = await call("file.preview", {
      threadId: thread.id,
      path: "big.txt",
      offset: 2001,
      expectedRevision: first.revision,
    });
    assert.deepEqual([stale.status, stale.reason], ["unavailable", "revision_changed"]);
  });
});

Deno.test("file.preview says why it cannot show a file", async () => {
  await withCore(async (call) => {
    const { thread } = await call("thread.create", { title: "f" }) as {
      thread: { id: string; workspace: { rootUri: string } };
    };
    const root = thread.workspace.rootUri;
    await Deno.writeFile(`${root}/blob.bin`, new Uint8Array([1, 0, 2]));
    await Deno.writeFile(`${root}/latin1.txt`, new Uint8Array([0x63, 0xe9]));
    await Deno.mkdir(`${root}/dir`);
    const reasons = [];
    for (
      const path of [
        "missing.txt",
        "blob.bin",
        "latin1.txt",
        "dir",
        "../../etc/passwd",
        "/etc/hostname",
      ]
    ) {
      reasons.push((await call("file.preview", { threadId: thread.id, path })).reason);
    }
    assert.deepEqual(reasons, [
      "file_not_found",
      "binary_file",
      "unsupported_encoding",
      "not_a_file",
      "outside_workspace",
      "outside_workspace",
    ]);
  });
});

Deno.test("file.change.get returns a recorded write and refuses unknown or foreign items", async () => {
  await withCore(async (call, core) => {
    const { thread } = await call("thread.create", { title: "f" }) as { thread: { id: string } };
    const other = await call("thread.create", { title: "g" }) as { thread: { id: string } };
    const { runId } = startTurn(core.store, {
      threadId: thread.id,
      content: "w",
      providerId: "p",
      modelId: "m",
      runConfig: testRunConfig({ providerId: "p", modelId: "m" }),
    }).result;
    activateRun(core.store, runId);
    const callItem =
      startItem(core.store, runId, { kind: "tool_call", role: "assistant", status: "running" })
        .result;
    const after = {
      exists: true,
      byteCount: 4,
      revision: "sha256:ab",
      encoding: "utf-8",
      bom: false,
      newline: "lf",
      lineCount: 1,
    };
    settleToolCall(
      core.store,
      callItem.id,
      { status: "completed" },
      { status: "completed", content: "ok" },
      (context, scope) =>
        void appendFileChange(context, scope, {
          toolCallItemId: callItem.id,
          path: "/ws/a.txt",
          operation: "write",
          additions: 1,
          deletions: 0,
          after,
          diff: "@@ -0,0 +1 @@\n+abc",
        }),
    );
    const change = await call("file.change.get", {
      threadId: thread.id,
      toolCallItemId: callItem.id,
    });
    assert.equal(change.status, "recorded");
    assert.deepEqual(change.after, after);
    assert.equal((change.before as { exists: boolean }).exists, false);
    assert.equal(change.additions, 1);
    const foreign = await call("file.change.get", {
      threadId: other.thread.id,
      toolCallItemId: callItem.id,
    });
    assert.deepEqual([foreign.status, foreign.reason], ["unavailable", "change_not_recorded"]);
  });
});

Deno.test("file.preview does not follow a link out of the workspace or to the home's secrets", async () => {
  await withCore(async (call, core) => {
    void core;
    const { thread } = await call("thread.create", { title: "links" }) as {
      thread: { id: string; workspace: { rootUri: string } };
    };
    const root = thread.workspace.rootUri;
    const outside = await Deno.makeTempDir({ prefix: "daedalus-outside-" });
    try {
      await Deno.writeTextFile(`${outside}/secret.txt`, "preview-secret\n");
      await Deno.symlink(`${outside}/secret.txt`, `${root}/file-link`);
      await Deno.symlink(outside, `${root}/dir-link`);
      const home = root.slice(0, root.indexOf("/ws/"));
      await Deno.writeTextFile(`${home}/auth.json`, `{"token":"preview-token"}`);
      await Deno.symlink(`${home}/auth.json`, `${root}/auth-link`);
      await Deno.writeTextFile(`${root}/ok.txt`, "fine\n");
      const preview = (path: string) => call("file.preview", { threadId: thread.id, path });
      assert.equal((await preview("ok.txt")).status, "text");
      for (const path of ["file-link", "dir-link/secret.txt", "../../secret.txt"]) {
        const page = await preview(path);
        assert.deepEqual([page.status, page.reason], ["unavailable", "outside_workspace"], path);
      }
      const auth = await preview("auth-link");
      assert.deepEqual([auth.status, auth.reason], ["unavailable", "protected_content"]);
      assert.ok(!JSON.stringify(auth).includes("preview-token"));
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  });
});

Deno.test("file.change.get hides a change recorded on a protected home file", async () => {
  await withCore(async (call, core) => {
    const { thread } = await call("thread.create", { title: "f" }) as {
      thread: { id: string; workspace: { rootUri: string } };
    };
    const root = thread.workspace.rootUri;
    const home = root.slice(0, root.indexOf("/ws/"));
    const { runId } = startTurn(core.store, {
      threadId: thread.id,
      content: "w",
      providerId: "p",
      modelId: "m",
      runConfig: testRunConfig({ providerId: "p", modelId: "m" }),
    }).result;
    activateRun(core.store, runId);
    const record = (path: string) => {
      const item =
        startItem(core.store, runId, { kind: "tool_call", role: "assistant", status: "running" })
          .result;
      settleToolCall(
        core.store,
        item.id,
        { status: "completed" },
        { status: "completed", content: "ok" },
        (context, scope) =>
          void appendFileChange(context, scope, {
            toolCallItemId: item.id,
            path,
            operation: "write",
            additions: 1,
            deletions: 0,
            diff: "@@ -0,0 +1 @@\n+api_key: sk-hidden",
          }),
      );
      return item.id;
    };
    // Recorded before such writes were refused: by absolute path, by a `..` path, and
    // through a hard link in the workspace (the same file under another name).
    await Deno.writeTextFile(`${home}/config.yaml`, "providers: {}\n", { append: true });
    await Deno.link(`${home}/config.yaml`, `${root}/alias.yaml`);
    const paths = [`${home}/config.yaml`, "../../../config.yaml", "alias.yaml", "notes.txt"];
    for (const path of paths) {
      const change = await call("file.change.get", {
        threadId: thread.id,
        toolCallItemId: record(path),
      });
      if (path === "notes.txt") assert.equal(change.status, "recorded");
      else {
        assert.deepEqual(
          [change.status, change.reason],
          ["unavailable", "protected_content"],
          path,
        );
        assert.ok(!JSON.stringify(change).includes("sk-hidden"));
      }
    }
  });
});

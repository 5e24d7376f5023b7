import assert from "node:assert/strict";
import { join } from "node:path";
import type { ProcessRecord } from "@daedalus/protocol";
import { createThread, homePaths, startTurn, StateStore } from "@daedalus/storage";
import { createDeleteHandlers } from "./delete_handlers.ts";
import { handlerCalls } from "./_test_handler_calls.ts";
import { rethrowAsRpcError } from "./errors.ts";
import { manifestPath, threadFileDirs } from "../threads/deleted_files.ts";
import { testRunConfig } from "../_test_run_config.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A home with one thread, a fake process manager that records what it was told to stop. */
async function setup() {
  const home = await Deno.makeTempDir({ prefix: "daedalus_delete_handler_" });
  const paths = homePaths(home);
  const store = StateStore.open(paths.stateDb);
  const { result } = await createThread(store, { workspacesRoot: join(home, "ws") });
  const threadId = result.thread.id;
  const stopped: string[] = [];
  const record = (processId: string, thread: string, state: ProcessRecord["state"]) =>
    ({ processId, threadId: thread, state }) as ProcessRecord;
  const records = [
    record("process_1", threadId, "running"),
    record("process_2", threadId, "exited"),
    record("process_3", "thread_" + "f".repeat(32), "running"),
  ];
  const handlers = createDeleteHandlers({
    store,
    processManager: {
      records: () => records,
      stop: (processId: string) => {
        stopped.push(processId);
        return Promise.resolve(records.find((r) => r.processId === processId)!);
      },
    },
    protectedValues: { assertSafe: () => {} },
    threadFiles: threadFileDirs(paths),
  });
  const artifact = join(paths.artifacts, threadId, "call.txt");
  await Deno.mkdir(join(artifact, ".."), { recursive: true });
  await Deno.writeTextFile(artifact, "x");
  return {
    paths,
    store,
    threadId,
    stopped,
    artifact,
    // As the dispatcher does: a store refusal reaches the client as an RpcError.
    calls: handlerCalls({
      "thread.delete": (params: Parameters<typeof handlers["thread.delete"]>[0]) =>
        handlers["thread.delete"](params).catch(rethrowAsRpcError),
    }),
    [Symbol.asyncDispose]: async () => {
      store.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

Deno.test("thread.delete stops the thread's running processes, erases it and removes its files", async () => {
  await using h = await setup();
  const result = await h.calls.call("thread.delete", {
    threadId: h.threadId,
    clientRequestId: "d-1",
  });
  assert.equal(result.threadId, h.threadId);
  assert.deepEqual(h.stopped, ["process_1"], "only the thread's running process is stopped");
  assert.equal(await exists(h.artifact), false, "the artifact is left");
  assert.equal(await exists(manifestPath(threadFileDirs(h.paths), h.threadId)), false);
  const again = await h.calls.call("thread.delete", {
    threadId: h.threadId,
    clientRequestId: "d-1",
  });
  assert.deepEqual(again, result, "a retry answers the same");
  assert.deepEqual(h.stopped, ["process_1"], "a retry stops nothing");
  const refused = await h.calls.refuse("thread.delete", {
    threadId: h.threadId,
    clientRequestId: "d-2",
  });
  assert.equal(refused.data.reasonCode, "thread_not_found");
});

Deno.test("thread.delete of a busy thread is refused before anything is stopped or removed", async () => {
  await using h = await setup();
  startTurn(h.store, {
    threadId: h.threadId,
    content: "hi",
    providerId: "p",
    modelId: "m",
    runConfig: testRunConfig({ providerId: "p", modelId: "m" }),
  });
  const refused = await h.calls.refuse("thread.delete", {
    threadId: h.threadId,
    clientRequestId: "d-1",
  });
  assert.equal(refused.data.reasonCode, "thread_busy");
  assert.deepEqual(h.stopped, [], "a busy thread keeps its processes");
  assert.ok(await exists(h.artifact), "a busy thread keeps its files");
  assert.deepEqual(
    await Array.fromAsync(Deno.readDir(threadFileDirs(h.paths).manifests)).catch(() => []),
    [],
  );
});

Deno.test("thread.delete refuses malformed params with invalid_params", async () => {
  await using h = await setup();
  for (const params of [{ threadId: "nope", clientRequestId: "x" }, { threadId: h.threadId }]) {
    const refused = await h.calls.refuse("thread.delete", params);
    assert.equal(refused.data.reasonCode, "invalid_params", JSON.stringify(params));
  }
});

/**
 * `turn.revert` through the real dispatcher, store and a temp workspace: files are
 * recorded as the file tools record them (captureFile of real bytes), then reverted.
 */
import assert from "node:assert/strict";
import { parseResult, RpcError } from "@daedalus/protocol";
import {
  activateRun,
  appendFileChange,
  settleRun,
  settleToolCall,
  startItem,
  startTurn,
} from "@daedalus/storage";
import { captureFile } from "@daedalus/tools";
import { openRuntimeCore } from "../runtime_core.ts";
import { testRunConfig } from "../_test_run_config.ts";

type Core = Awaited<ReturnType<typeof openRuntimeCore>>;
type Revert = {
  applied: boolean;
  direction: string;
  files: { path: string; outcome: string; reason: string | null }[];
  eventSeq: number | null;
};

const encode = (text: string) => new TextEncoder().encode(text);

async function withWorkspace(fn: (core: Core, root: string, threadId: string) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-revert-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
  });
  try {
    const created = await core.dispatcher.dispatch("thread.create", { title: "r" }, {
      id: "t",
      transport: "http",
    });
    const { thread } = created.result as { thread: { id: string; workspace: { rootUri: string } } };
    await fn(core, thread.workspace.rootUri, thread.id);
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

async function revert(core: Core, params: Record<string, unknown>): Promise<Revert> {
  const outcome = await core.dispatcher.dispatch("turn.revert", params, {
    id: "r",
    transport: "http",
  });
  return parseResult("turn.revert", outcome.result) as unknown as Revert;
}

/**
 * A turn whose Run wrote `writes` (path → new text, null = the file is not touched on disk
 * first) exactly as write/edit would: bytes before and after captured, the file written.
 */
async function turnThatWrites(
  core: Core,
  root: string,
  threadId: string,
  writes: [path: string, text: string][],
  settle = true,
) {
  const { turnId, runId } = startTurn(core.store, {
    threadId,
    content: "w",
    providerId: "p",
    modelId: "m",
    runConfig: testRunConfig({ providerId: "p", modelId: "m" }),
  }).result;
  activateRun(core.store, runId);
  for (const [path, text] of writes) {
    const abs = path.startsWith("/") ? path : `${root}/${path}`;
    const beforeBytes = await Deno.readFile(abs).catch(() => null);
    const [before, after] = [await captureFile(beforeBytes), await captureFile(encode(text))];
    await Deno.writeFile(abs, encode(text));
    const item = startItem(core.store, runId, {
      kind: "tool_call",
      role: "assistant",
      status: "running",
    }).result;
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
          before,
          after,
          diff: null,
        }),
    );
  }
  if (settle) settleRun(core.store, runId, "completed", null);
  return { turnId, runId };
}

const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);

Deno.test("turn.revert restores byte for byte, removes created files, and its revert redoes", async () => {
  await withWorkspace(async (core, root, threadId) => {
    const original = "\uFEFFline 1\r\nline 2\r\n";
    await Deno.writeTextFile(`${root}/a.txt`, original);
    const { turnId } = await turnThatWrites(core, root, threadId, [
      ["a.txt", "changed\n"],
      ["new.txt", "created\n"],
      ["a.txt", "changed twice\n"],
    ]);
    const dry = await revert(core, { turnId, clientRequestId: "d1", dryRun: true });
    assert.equal(dry.applied, false, "a dry run writes nothing");
    assert.deepEqual(dry.files.map((f) => [f.path, f.outcome]), [
      ["a.txt", "reverted"],
      ["new.txt", "reverted"],
    ], "newest change first, one entry per file");
    assert.equal(await Deno.readTextFile(`${root}/a.txt`), "changed twice\n", "dry run left a.txt");

    const undo = await revert(core, { turnId, clientRequestId: "u1" });
    assert.equal(undo.applied, true);
    assert.equal(undo.direction, "undo");
    assert.ok(undo.eventSeq !== null, "the revert is journaled");
    assert.deepEqual(await Deno.readFile(`${root}/a.txt`), encode(original), "byte for byte");
    assert.equal(await exists(`${root}/new.txt`), false, "a file the turn created is removed");

    const again = await revert(core, { turnId, clientRequestId: "u1" });
    assert.deepEqual(again, undo, "the same clientRequestId gives the same result");
    assert.deepEqual(await Deno.readFile(`${root}/a.txt`), encode(original), "and writes nothing");

    const redo = await revert(core, { turnId, clientRequestId: "r1" });
    assert.equal(redo.direction, "redo", "reverting the revert");
    assert.equal(await Deno.readTextFile(`${root}/a.txt`), "changed twice\n");
    assert.equal(await Deno.readTextFile(`${root}/new.txt`), "created\n", "recreated");

    const undoAgain = await revert(core, { turnId, clientRequestId: "u2" });
    assert.equal(undoAgain.direction, "undo");
    assert.deepEqual(await Deno.readFile(`${root}/a.txt`), encode(original));
  });
});

Deno.test("turn.revert: a conflict touches nothing unless forced", async () => {
  await withWorkspace(async (core, root, threadId) => {
    await Deno.writeTextFile(`${root}/a.txt`, "a0");
    await Deno.writeTextFile(`${root}/b.txt`, "b0");
    const { turnId } = await turnThatWrites(core, root, threadId, [["a.txt", "a1"], [
      "b.txt",
      "b1",
    ]]);
    await Deno.writeTextFile(`${root}/b.txt`, "edited by hand");
    const refused = await revert(core, { turnId, clientRequestId: "c1" });
    assert.equal(refused.applied, false, "a conflict stops the whole revert");
    assert.deepEqual(refused.files.map((f) => [f.path, f.outcome, f.reason]), [
      ["b.txt", "conflict", "changed_since"],
      ["a.txt", "reverted", null],
    ]);
    assert.equal(await Deno.readTextFile(`${root}/a.txt`), "a1", "nothing was touched");
    const forced = await revert(core, { turnId, clientRequestId: "c2", force: true });
    assert.equal(forced.applied, true);
    assert.deepEqual(forced.files.map((f) => [f.path, f.outcome, f.reason]), [
      ["b.txt", "reverted", "changed_since"],
      ["a.txt", "reverted", null],
    ], "forced, the conflict is reverted too and says it changed since");
    assert.equal(await Deno.readTextFile(`${root}/a.txt`), "a0");
    assert.equal(await Deno.readTextFile(`${root}/b.txt`), "b0", "the hand edit is overwritten");
    const back = await revert(core, { turnId, clientRequestId: "c3" });
    assert.equal(back.direction, "redo");
    assert.equal(
      await Deno.readTextFile(`${root}/b.txt`),
      "edited by hand",
      "reverting the forced revert brings the hand edit back",
    );
  });
});

Deno.test("turn.revert: empty turn, unknown turn, active turn", async () => {
  await withWorkspace(async (core, root, threadId) => {
    const { turnId } = await turnThatWrites(core, root, threadId, []);
    const empty = await revert(core, { turnId, clientRequestId: "e1" });
    assert.deepEqual([empty.applied, empty.files, empty.eventSeq], [false, [], null]);
    await assert.rejects(
      revert(core, { turnId: "turn_0123456789abcdef0123456789abcdef", clientRequestId: "e2" }),
      (error: unknown) => error instanceof RpcError && error.reasonCode === "turn_not_found",
    );
    const active = await turnThatWrites(core, root, threadId, [["x.txt", "x"]], false);
    await assert.rejects(
      revert(core, { turnId: active.turnId, clientRequestId: "e3" }),
      (error: unknown) => error instanceof RpcError && error.reasonCode === "turn_active",
    );
    assert.equal(await Deno.readTextFile(`${root}/x.txt`), "x", "an active turn is not reverted");
    settleRun(core.store, active.runId, "completed", null);
  });
});

Deno.test("turn.revert writes only inside the workspace, never a protected home file", async () => {
  await withWorkspace(async (core, root, threadId) => {
    const outside = await Deno.makeTempDir({ prefix: "daedalus-outside-" });
    try {
      const { turnId } = await turnThatWrites(core, root, threadId, [
        [`${outside}/far.txt`, "far"],
        ["in.txt", "in"],
      ]);
      const result = await revert(core, { turnId, clientRequestId: "o1" });
      assert.deepEqual(result.files.map((f) => [f.outcome, f.reason]), [
        ["reverted", null],
        ["not_revertible", "permission_denied"],
      ], "the file outside the workspace is reported, the other one reverted");
      assert.equal(await Deno.readTextFile(`${outside}/far.txt`), "far", "outside untouched");
      assert.equal(await exists(`${root}/in.txt`), false);
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  });
});

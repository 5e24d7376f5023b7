/**
 * `branch.create`, `branch.list` and `thread.set_active_branch` through the real
 * dispatcher and store: results as the wire carries them, the original event for a retry,
 * and each refusal as an RPC error with its reason code.
 */
import assert from "node:assert/strict";
import { parseResult, RpcError } from "@daedalus/protocol";
import { activateRun, settleRun, startTurn } from "@daedalus/storage";
import { openRuntimeCore } from "../runtime_core.ts";
import { testRunConfig } from "../_test_run_config.ts";

type Core = Awaited<ReturnType<typeof openRuntimeCore>>;

async function withThread(
  fn: (core: Core, threadId: string, defaultBranchId: string) => Promise<void>,
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-branch-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
  });
  try {
    const { thread } = parseResult(
      "thread.create",
      (await core.dispatcher.dispatch("thread.create", { title: "b" }, ctx())).result,
    );
    await fn(core, thread.id, thread.defaultBranchId);
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

const ctx = () => ({ id: "b", transport: "http" as const });

function turn(core: Core, threadId: string, settle = true) {
  const { turnId, runId } = startTurn(core.store, {
    threadId,
    content: "q",
    providerId: "p",
    modelId: "m",
    runConfig: testRunConfig({ providerId: "p", modelId: "m" }),
  }).result;
  activateRun(core.store, runId);
  if (settle) settleRun(core.store, runId, "completed", null);
  return turnId;
}

async function refusal(core: Core, method: string, params: unknown): Promise<string> {
  try {
    await core.dispatcher.dispatch(method, params, ctx());
  } catch (error) {
    assert.ok(error instanceof RpcError, `${method} threw ${error}`);
    return error.data.reasonCode;
  }
  assert.fail(`${method} should have been refused`);
}

Deno.test("branch.create returns the branch and its event; a retry returns the same event", async () => {
  await withThread(async (core, threadId, defaultBranchId) => {
    const first = turn(core, threadId);
    turn(core, threadId);
    const params = { threadId, fromTurnId: first, clientRequestId: "fork" };
    const created = parseResult(
      "branch.create",
      (await core.dispatcher.dispatch("branch.create", params, ctx())).result,
    );
    assert.equal(created.event.type, "branch.created");
    assert.equal(created.branch.forkTurnId, first);
    assert.equal(created.branch.parentBranchId, defaultBranchId);
    const again = parseResult(
      "branch.create",
      (await core.dispatcher.dispatch("branch.create", params, ctx())).result,
    );
    assert.deepEqual(again, created);
    const listed = parseResult(
      "branch.list",
      (await core.dispatcher.dispatch("branch.list", { threadId }, ctx())).result,
    );
    assert.equal(listed.activeBranchId, created.branch.id);
    const switched = parseResult(
      "thread.set_active_branch",
      (await core.dispatcher.dispatch(
        "thread.set_active_branch",
        { threadId, branchId: defaultBranchId },
        ctx(),
      )).result,
    );
    assert.equal(switched.event?.type, "thread.branch_switched");
    const unchanged = parseResult(
      "thread.set_active_branch",
      (await core.dispatcher.dispatch(
        "thread.set_active_branch",
        { threadId, branchId: defaultBranchId },
        ctx(),
      )).result,
    );
    assert.deepEqual([unchanged.changed, unchanged.event], [false, null]);
  });
});

Deno.test("branch.create refusals carry their own reason codes", async () => {
  await withThread(async (core, threadId) => {
    const running = turn(core, threadId, false);
    const cases: [unknown, string][] = [
      [
        { threadId: "thread_0123456789abcdef0123456789abcdef", fromTurnId: null },
        "thread_not_found",
      ],
      [{ threadId, fromTurnId: "turn_0123456789abcdef0123456789abcdef" }, "turn_not_found"],
      [{ threadId, fromTurnId: running }, "turn_active"],
      [{ threadId, fromTurnId: null }, "invalid_params"],
    ];
    for (const [i, [params, reason]] of cases.entries()) {
      const request = reason === "invalid_params"
        ? params
        : { ...(params as object), clientRequestId: `bad-${i}` };
      assert.equal(await refusal(core, "branch.create", request), reason, JSON.stringify(params));
    }
    assert.equal(
      await refusal(core, "thread.set_active_branch", {
        threadId,
        branchId: "branch_0123456789abcdef0123456789abcdef",
      }),
      "branch_not_found",
    );
  });
});

/**
 * Approvals through the loop, in-process: a call the gate asks about turns the Run waiting
 * (its worker free), the answer resumes it from the journal, and every decision does what
 * it says — allow once runs the call, deny hands the model the user's words, allow for the
 * thread and always allow add rules that the next Run obeys.
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { readPermissions, writePermissions } from "@daedalus/storage";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider, type ScriptedResponse } from "../providers/scripted.ts";
import type { ProviderRequest } from "../providers/provider.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled, summarizeEvents, waitUntil } from "../_test_wait.ts";

/** Answers a tool call with `call`, and a tool result with "done". */
function callThenAnswer(call: { name: string; arguments: Record<string, unknown> }) {
  return (request: ProviderRequest): ScriptedResponse => {
    const last = request.messages.at(-1);
    return last?.role === "tool" ? { text: ["done"] } : { toolCalls: [call] };
  };
}

async function world(
  script: (request: ProviderRequest) => ScriptedResponse,
  options: { workers?: number } = {},
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-approvals-" });
  const provider = createScriptedProvider({ script });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    providers: [provider],
    ...(options.workers ? { workers: options.workers } : {}),
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  const call = dispatchOn(core);
  const newThread = async () => (await call("thread.create", { title: "approvals" })).thread;
  const start = async (threadId: string, executionPolicy = "ask", content = "go") =>
    (await call("turn.start", {
      threadId,
      content,
      providerId: "scripted",
      modelId: "scripted-model",
      executionPolicy,
    })).runId as string;
  const requested = (runId: string) =>
    waitUntil(
      `approval.requested of ${runId}`,
      () => events.findLast((e) => e.type === "approval.requested" && e.runId === runId),
      () => summarizeEvents(events),
    );
  const results = async (threadId: string, runId: string) => {
    const turns = (await call("turn.list", { threadId })).turns;
    const run = turns.flatMap((t: { runs: unknown[] }) => t.runs).find((
      r: { id: string },
    ) => r.id === runId);
    return (run.items as Array<{ kind: string; content: string; data: Record<string, unknown> }>)
      .filter((i) => i.kind === "tool_result");
  };
  return {
    home,
    core,
    call,
    events,
    provider,
    newThread,
    start,
    requested,
    results,
    async [Symbol.asyncDispose]() {
      await core.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

const ECHO = { name: "process_start", arguments: { command: "echo approved-output" } };

Deno.test("ask: a command waits for approval without a worker; allow once runs it and the Run completes", async () => {
  await using w = await world(callThenAnswer(ECHO));
  const thread = await w.newThread();
  const runId = await w.start(thread.id);
  const asked = await w.requested(runId);
  assert.equal(asked.type, "approval.requested");
  const payload = asked.payload as Record<string, unknown>;
  for (const field of ["approvalId", "runId", "toolCallItemId", "tool", "summary", "target"]) {
    assert.ok(typeof payload[field] === "string", `payload.${field}: ${JSON.stringify(payload)}`);
  }
  assert.deepEqual(
    [payload.tool, payload.target, payload.risk, payload.reasonCode, payload.status],
    ["process_start", "echo approved-output", "process", "permission_ask", "pending"],
  );
  assert.deepEqual(payload.rule, {
    tool: "process_start",
    pattern: "echo approved-output",
    decision: "allow",
  });
  assert.equal(asked.itemId, payload.toolCallItemId, "scoped to the waiting call");
  await waitUntil("the worker to be free", () => w.core.scheduler.activeCount === 0);
  assert.equal(
    (await w.call("thread.get", { threadId: thread.id })).activeRun?.status ?? "waiting",
    "waiting",
  );
  const listed = await w.call("approval.list", { threadId: thread.id, status: "pending" });
  assert.deepEqual(listed.approvals.map((a: { approvalId: string }) => a.approvalId), [
    payload.approvalId,
  ]);
  const answered = await w.call("approval.respond", {
    approvalId: payload.approvalId,
    decision: "allow_once",
    clientRequestId: "answer-1",
  });
  assert.equal(answered.approval.status, "allowed");
  const settled = await runSettled(w.events, runId);
  assert.equal(settled.payload.status, "completed", summarizeEvents(w.events));
  const [result] = await w.results(thread.id, runId);
  assert.ok(result, "the allowed call has its result");
  assert.equal(result.data.isError, false, result.content);
  assert.match(result.content, /^Started process_/, "the command was started");
  const again = await w.call("approval.respond", {
    approvalId: payload.approvalId,
    decision: "allow_once",
    clientRequestId: "answer-1",
  });
  assert.deepEqual(again.approval, answered.approval, "a retried answer is the first one");
  await assert.rejects(
    () => w.call("approval.respond", { approvalId: payload.approvalId, decision: "deny" }),
    (error: { data?: { reasonCode?: string } }) =>
      error.data?.reasonCode === "approval_already_resolved",
  );
});

Deno.test("deny with a message gives the model the user's words; the Run goes on", async () => {
  await using w = await world(callThenAnswer(ECHO));
  const thread = await w.newThread();
  const runId = await w.start(thread.id);
  const asked = await w.requested(runId);
  const approvalId = (asked.payload as { approvalId: string }).approvalId;
  await w.call("approval.respond", {
    approvalId,
    decision: "deny",
    message: "not on this machine",
  });
  const settled = await runSettled(w.events, runId);
  assert.equal(settled.payload.status, "completed", summarizeEvents(w.events));
  const [result] = await w.results(thread.id, runId);
  assert.equal(result?.data.errorCode, "approval_denied");
  assert.match(result?.content ?? "", /not on this machine/);
  const lastRequest = w.provider.requests.at(-1);
  assert.match(JSON.stringify(lastRequest?.messages.at(-1)), /not on this machine/);
});

Deno.test("allow_always writes a config rule the next Run obeys; allow_thread holds for its thread only", async () => {
  await using w = await world(callThenAnswer(ECHO));
  const thread = await w.newThread();
  const first = await w.start(thread.id);
  const asked = await w.requested(first);
  await w.call("approval.respond", {
    approvalId: (asked.payload as { approvalId: string }).approvalId,
    decision: "allow_always",
  });
  await runSettled(w.events, first);
  const permissions = await readPermissions(`${w.home}/config.yaml`);
  assert.deepEqual(permissions.rules, [{
    tool: "process_start",
    pattern: "echo approved-output",
    decision: "allow",
  }]);
  const second = await w.start(thread.id);
  const settled = await runSettled(w.events, second);
  assert.equal(settled.payload.status, "completed");
  assert.equal(
    w.events.filter((e) => e.type === "approval.requested" && e.runId === second).length,
    0,
    "the rule answered the next Run's call",
  );
});

Deno.test("allow_thread: the thread's next Run runs the call, another thread still asks", async () => {
  const other = { name: "process_start", arguments: { command: "echo thread-rule" } };
  await using w = await world(callThenAnswer(other));
  const thread = await w.newThread();
  const first = await w.start(thread.id);
  const asked = await w.requested(first);
  await w.call("approval.respond", {
    approvalId: (asked.payload as { approvalId: string }).approvalId,
    decision: "allow_thread",
  });
  await runSettled(w.events, first);
  const second = await w.start(thread.id);
  assert.equal((await runSettled(w.events, second)).payload.status, "completed");
  assert.equal(w.events.filter((e) => e.type === "approval.requested").length, 1);
  const elsewhere = await w.newThread();
  const third = await w.start(elsewhere.id);
  await w.requested(third);
  await w.call("run.cancel", { runId: third });
  await runSettled(w.events, third);
});

Deno.test("cancel while waiting settles the Run and cancels its approval; steering keeps it pending", async () => {
  await using w = await world(callThenAnswer(ECHO));
  const thread = await w.newThread();
  const runId = await w.start(thread.id);
  const asked = await w.requested(runId);
  const approvalId = (asked.payload as { approvalId: string }).approvalId;
  await waitUntil("the worker to be free", () => w.core.scheduler.activeCount === 0);
  await w.call("run.steer", { runId, content: "use the test folder" });
  const pending = await w.call("approval.list", { threadId: thread.id, status: "pending" });
  assert.equal(pending.approvals.length, 1, "steering keeps the approval pending");
  await w.call("run.cancel", { runId });
  const settled = await runSettled(w.events, runId);
  assert.deepEqual([settled.payload.status, settled.payload.reasonCode], [
    "cancelled",
    "cancelled",
  ]);
  const resolved = w.events.find((e) => e.type === "approval.resolved" && e.runId === runId);
  assert.equal((resolved?.payload as { status?: string })?.status, "cancelled");
  await assert.rejects(
    () => w.call("approval.respond", { approvalId, decision: "allow_once" }),
    (error: { data?: { reasonCode?: string } }) =>
      error.data?.reasonCode === "approval_already_resolved",
  );
  // The thread is free again: a new turn runs.
  const next = await w.start(thread.id, "full_access");
  assert.equal((await runSettled(w.events, next)).payload.status, "completed");
});

Deno.test("a high-risk command asks even under full_access and offers no rule", async () => {
  const risky = { name: "process_start", arguments: { command: "sudo true" } };
  await using w = await world(callThenAnswer(risky));
  const thread = await w.newThread();
  const runId = await w.start(thread.id, "full_access");
  const asked = await w.requested(runId);
  const payload = asked.payload as { approvalId: string; reasonCode: string; decisions: string[] };
  assert.equal(payload.reasonCode, "high_risk_command");
  assert.deepEqual(payload.decisions, ["allow_once", "deny"]);
  await assert.rejects(
    () => w.call("approval.respond", { approvalId: payload.approvalId, decision: "allow_always" }),
    (error: { data?: { reasonCode?: string } }) =>
      error.data?.reasonCode === "approval_decision_invalid",
  );
  assert.equal(await readPermissions(`${w.home}/config.yaml`).then((p) => p.rules), undefined);
  await w.call("approval.respond", { approvalId: payload.approvalId, decision: "deny" });
  assert.equal((await runSettled(w.events, runId)).payload.status, "completed");
  await assert.rejects(
    () =>
      w.call("approval.respond", { approvalId: `approval_${"0".repeat(32)}`, decision: "deny" }),
    (error: { data?: { reasonCode?: string } }) => error.data?.reasonCode === "approval_not_found",
  );
});

Deno.test("a model that repeats a call forever pauses for the user within 5 calls", async () => {
  let calls = 0;
  await using w = await world(() => {
    calls++;
    return { toolCalls: [{ name: "thread_list", arguments: {} }] };
  });
  const thread = await w.newThread();
  const runId = await w.start(thread.id, "full_access");
  const asked = await w.requested(runId);
  assert.equal((asked.payload as { reasonCode: string }).reasonCode, "loop_detected");
  assert.equal(calls, 5, "paused at the 5th model call");
  await w.call("approval.respond", {
    approvalId: (asked.payload as { approvalId: string }).approvalId,
    decision: "deny",
    message: "stop repeating",
  });
  // Denied, the model tries again: the Run's detector kept counting, so it asks at once.
  const again = await waitUntil(
    "a second loop approval",
    () => w.events.filter((e) => e.type === "approval.requested" && e.runId === runId).at(1),
    () => summarizeEvents(w.events),
  );
  assert.equal((again.payload as { reasonCode: string }).reasonCode, "loop_detected");
  assert.equal(calls, 6, "one more model call, then the pause again");
  await w.call("run.cancel", { runId });
  assert.equal((await runSettled(w.events, runId)).payload.status, "cancelled");
});

Deno.test("20 Runs waiting for approval hold no worker: a 21st thread runs on a pool of 6", async () => {
  await using w = await world((request) => {
    const last = request.messages.at(-1);
    if (last?.role === "tool") return { text: ["done"] };
    const text = JSON.stringify(request.messages);
    return text.includes("free thread") ? { text: ["free"] } : { toolCalls: [ECHO] };
  }, { workers: 6 });
  const waiting: string[] = [];
  for (let i = 0; i < 20; i++) waiting.push(await w.start((await w.newThread()).id));
  for (const runId of waiting) await w.requested(runId);
  assert.equal(w.core.scheduler.waitingCount, 20);
  const free = await w.start((await w.newThread()).id, "ask", "free thread");
  assert.equal((await runSettled(w.events, free)).payload.status, "completed");
  for (const runId of waiting) await w.call("run.cancel", { runId });
});

Deno.test("a turn that names no mode runs under config.yaml's default preset, else ask", async () => {
  await using w = await world(callThenAnswer(ECHO));
  const thread = await w.newThread();
  const start = async () =>
    (await w.call("turn.start", {
      threadId: thread.id,
      content: "go",
      providerId: "scripted",
      modelId: "scripted-model",
    })).runId as string;
  const asking = await start();
  await w.requested(asking);
  await w.call("run.cancel", { runId: asking });
  await runSettled(w.events, asking);
  await writePermissions(`${w.home}/config.yaml`, { preset: "full_access" });
  const free = await start();
  assert.equal((await runSettled(w.events, free)).payload.status, "completed");
  const [result] = await w.results(thread.id, free);
  assert.equal(result?.data.isError, false, result?.content);
  assert.equal(
    w.events.filter((e) => e.type === "approval.requested" && e.runId === free).length,
    0,
    "config.yaml's preset applied",
  );
  const queued = w.events.find((e) =>
    e.type === "run.state_changed" && e.runId === free && e.payload.status === "queued"
  );
  assert.equal(
    (queued?.payload as { run?: { executionPolicy?: string } }).run?.executionPolicy,
    "full_access",
  );
});

Deno.test("a budget reached pauses the Run; allowing adds its extension, denying fails it budget_exceeded", async () => {
  let n = 0;
  await using w = await world(() => ({
    toolCalls: [{ name: "thread_list", arguments: { limit: ++n } }],
  }));
  const thread = await w.newThread();
  const { runId } = await w.call("turn.start", {
    threadId: thread.id,
    content: "go",
    providerId: "scripted",
    modelId: "scripted-model",
    executionPolicy: "full_access",
    budget: { modelCalls: 2 },
  });
  const first = await w.requested(runId);
  const payload = first.payload as Record<string, unknown>;
  assert.equal(payload.reasonCode, "budget_reached");
  assert.deepEqual(payload.budget, { kind: "modelCalls", limit: 2, used: 2, extension: 2 });
  assert.deepEqual([payload.toolCallItemId, payload.tool, payload.risk], [null, null, null]);
  assert.equal(first.itemId, null, "a budget approval is the Run's, not a call's");
  assert.match(String(payload.summary), /Continue with \+2 model calls/);
  assert.equal(w.provider.requests.length, 2, "no model call past the budget");
  await w.call("approval.respond", { approvalId: payload.approvalId, decision: "allow_once" });
  const second = await waitUntil(
    "the second budget approval",
    () => w.events.filter((e) => e.type === "approval.requested" && e.runId === runId).at(1),
    () => summarizeEvents(w.events),
  );
  assert.deepEqual((second.payload as { budget: unknown }).budget, {
    kind: "modelCalls",
    limit: 4,
    used: 4,
    extension: 2,
  });
  assert.equal(w.provider.requests.length, 4);
  await w.call("approval.respond", {
    approvalId: (second.payload as { approvalId: string }).approvalId,
    decision: "deny",
  });
  const settled = await runSettled(w.events, runId);
  assert.deepEqual(
    [settled.payload.status, settled.payload.reasonCode, settled.payload.failureClass],
    ["failed", "budget_exceeded", "needs_user"],
  );
});

Deno.test("config.yaml's budgets apply to a turn that names none", async () => {
  await using w = await world(() => ({ toolCalls: [{ name: "thread_list", arguments: {} }] }));
  await Deno.writeTextFile(`${w.home}/config.yaml`, "version: 1\nbudgets:\n  model_calls: 1\n");
  const thread = await w.newThread();
  const runId = await w.start(thread.id, "full_access");
  const asked = await w.requested(runId);
  assert.deepEqual((asked.payload as { budget: { kind: string; limit: number } }).budget.limit, 1);
  await w.call("run.cancel", { runId });
  await runSettled(w.events, runId);
});

/**
 * `ask_user` questions in the store: an approval of reason `user_question` carrying the
 * question; answering it settles the call with the answer as its result in the transaction
 * that turns the Run running again; bad answers get their own reason codes.
 */
import assert from "node:assert/strict";
import type { QuestionAnswer, UserQuestion } from "@daedalus/protocol";
import { activateRun, readRunScope, startItem } from "./run_writes.ts";
import {
  type ApprovalRequest,
  QUESTION_DECLINED_ERROR_CODE,
  requestApproval,
  requestBudgetApproval,
  resolveApproval,
} from "./approval_writes.ts";
import { readApproval } from "./reads/approvals.ts";
import { checkState } from "./maintenance.ts";
import { listRecoverableRuns } from "./reads/recovery.ts";
import {
  assertValidEvents,
  eventTypes,
  openTestStore,
  readRow,
  seedThread,
  seedTurn,
  storeErrorCode,
  type TestStore,
} from "./_test_store.ts";

/** A running Run whose running ask_user call asks `question`. */
async function asking(fixture: TestStore, question: UserQuestion) {
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(fixture.store, threadId);
  assert.equal(activateRun(fixture.store, runId).result, true);
  const call = startItem(fixture.store, runId, {
    kind: "tool_call",
    role: "assistant",
    status: "running",
    data: { toolId: "ask_user", callId: "call_q", arguments: { question: question.text } },
  }).result;
  const request: ApprovalRequest = {
    runId,
    toolCallItemId: call.id,
    toolId: "ask_user",
    summary: question.text,
    target: null,
    risk: "read",
    reasonCode: "user_question",
    question,
  };
  return { threadId, runId, callId: call.id, request };
}

function assertRebuildable(fixture: TestStore): void {
  const report = checkState(fixture.store.db);
  assert.deepEqual(report.projectionDifferences, [], "projections differ from a rebuild");
  assert.ok(report.ok, `storage check failed: ${JSON.stringify(report)}`);
}

function toolResultOf(fixture: TestStore, runId: string) {
  const row = readRow(
    fixture.store,
    "SELECT status, content, data_json FROM items WHERE run_id = ? AND kind = 'tool_result'",
    runId,
  );
  return {
    status: String(row.status),
    content: String(row.content),
    data: JSON.parse(String(row.data_json)),
  };
}

Deno.test("a question is an approval carrying it; the Run waits like for an approval", async () => {
  await using fixture = await openTestStore();
  const question = { text: "Deploy now?", choices: ["yes", "no"] };
  const { runId, callId, request } = await asking(fixture, question);
  const { result: approval, events } = requestApproval(fixture.store, request);
  assertValidEvents(events);
  assert.deepEqual(eventTypes(events), ["approval.requested", "run.state_changed"]);
  assert.deepEqual(approval.question, question);
  assert.deepEqual(approval.decisions, ["allow_once", "deny"]);
  const requested = events[0];
  assert.ok(requested?.type === "approval.requested");
  assert.deepEqual(requested.payload.question, question, "the event carries the question");
  assert.equal(requested.itemId, callId);
  assert.equal(readRunScope(fixture.store.db, runId).status, "waiting");
  assert.deepEqual(
    fixture.store.read((db) => readApproval(db, approval.approvalId))?.question,
    question,
    "stored with the question",
  );
  const recoverable = () => listRecoverableRuns(fixture.store.db).map((run) => run.runId);
  // As for an approval: a restart leaves a waiting Run waiting (not runtime_interrupted);
  // once answered it is a running Run the runtime picks up again.
  assert.deepEqual(recoverable(), [], "a Run waiting for an answer is not interrupted");
  resolveApproval(fixture.store, {
    approvalId: approval.approvalId,
    decision: "allow_once",
    answer: "yes",
  });
  assert.deepEqual(recoverable(), [runId], "answered, it goes on");
  assertRebuildable(fixture);
});

Deno.test("a question and its reason go together: either alone is refused", async () => {
  await using fixture = await openTestStore();
  const { request } = await asking(fixture, { text: "q" });
  const { question: _question, ...withoutQuestion } = request;
  assert.throws(
    () => requestApproval(fixture.store, withoutQuestion),
    storeErrorCode("invalid_event"),
    "user_question without its question",
  );
  assert.throws(
    () => requestApproval(fixture.store, { ...request, reasonCode: "permission_ask" }),
    storeErrorCode("invalid_event"),
    "a question on another reason",
  );
});

Deno.test("the answer settles the call with it as the result, and the Run runs again", async () => {
  const cases: [string, UserQuestion, QuestionAnswer, string][] = [
    ["free text", { text: "Which port?" }, "8080", "The user answered: 8080"],
    ["a choice", { text: "Deploy?", choices: ["yes", "no"] }, "no", "The user answered: no"],
    [
      "several choices",
      { text: "Targets?", choices: ["linux", "mac", "windows"], multiple: true },
      ["linux", "windows"],
      "The user picked: linux; windows",
    ],
    [
      "one choice of several as text",
      { text: "Targets?", choices: ["linux", "mac"], multiple: true },
      "mac",
      "The user answered: mac",
    ],
  ];
  for (const [name, question, answer, content] of cases) {
    await using fixture = await openTestStore();
    const { runId, callId, request } = await asking(fixture, question);
    const approval = requestApproval(fixture.store, request).result;
    const { result, events } = resolveApproval(fixture.store, {
      approvalId: approval.approvalId,
      decision: "allow_once",
      answer,
    });
    assertValidEvents(events);
    assert.deepEqual(eventTypes(events), [
      "approval.resolved",
      "item.completed",
      "item.completed",
      "run.state_changed",
    ], name);
    assert.deepEqual([result.status, result.answer], ["allowed", answer], name);
    assert.equal(
      readRow(fixture.store, "SELECT status FROM items WHERE id = ?", callId).status,
      "completed",
      `${name}: the call settled`,
    );
    const toolResult = toolResultOf(fixture, runId);
    assert.deepEqual([toolResult.status, toolResult.content], ["completed", content], name);
    assert.deepEqual(
      [toolResult.data.toolCallItemId, toolResult.data.callId, toolResult.data.isError],
      [callId, "call_q", false],
      name,
    );
    assert.deepEqual(toolResult.data.answer, answer, name);
    assert.equal(readRunScope(fixture.store.db, runId).status, "running", name);
    assertRebuildable(fixture);
  }
});

Deno.test("declining a question fails the call with question_declined and the user's words", async () => {
  await using fixture = await openTestStore();
  const { runId, request } = await asking(fixture, { text: "Which port?" });
  const approval = requestApproval(fixture.store, request).result;
  const { result } = resolveApproval(fixture.store, {
    approvalId: approval.approvalId,
    decision: "deny",
    message: "pick one yourself",
  });
  assert.equal(result.status, "denied");
  assert.equal(result.answer, undefined);
  const toolResult = toolResultOf(fixture, runId);
  assert.equal(toolResult.status, "failed");
  assert.equal(
    toolResult.content,
    "The user declined to answer the question: pick one yourself",
  );
  assert.equal(toolResult.data.errorCode, QUESTION_DECLINED_ERROR_CODE);
  assert.equal(readRunScope(fixture.store.db, runId).status, "running");
  assertRebuildable(fixture);
});

Deno.test("bad answers are question_answer_invalid and leave the question pending", async () => {
  const cases: [string, UserQuestion, "allow_once" | "deny", QuestionAnswer | undefined][] = [
    ["no answer", { text: "q" }, "allow_once", undefined],
    ["not a choice", { text: "q", choices: ["a", "b"] }, "allow_once", "c"],
    ["a list for one answer", { text: "q", choices: ["a", "b"] }, "allow_once", ["a"]],
    ["a list without choices", { text: "q" }, "allow_once", ["a"]],
    ["a listed choice not offered", { text: "q", choices: ["a"], multiple: true }, "allow_once", [
      "a",
      "z",
    ]],
    ["a choice twice", { text: "q", choices: ["a", "b"], multiple: true }, "allow_once", [
      "a",
      "a",
    ]],
    ["an answer with deny", { text: "q" }, "deny", "x"],
  ];
  for (const [name, question, decision, answer] of cases) {
    await using fixture = await openTestStore();
    const { runId, request } = await asking(fixture, question);
    const approval = requestApproval(fixture.store, request).result;
    assert.throws(
      () =>
        resolveApproval(fixture.store, {
          approvalId: approval.approvalId,
          decision,
          ...(answer !== undefined ? { answer } : {}),
        }),
      storeErrorCode("question_answer_invalid"),
      name,
    );
    assert.equal(
      fixture.store.read((db) => readApproval(db, approval.approvalId))?.status,
      "pending",
      `${name}: still pending`,
    );
    assert.equal(readRunScope(fixture.store.db, runId).status, "waiting", `${name}: still waiting`);
  }
});

Deno.test("unknown and already answered questions get their own reason codes", async () => {
  await using fixture = await openTestStore();
  const { request } = await asking(fixture, { text: "Which port?" });
  const approval = requestApproval(fixture.store, request).result;
  assert.throws(
    () =>
      resolveApproval(fixture.store, {
        approvalId: `approval_${"0".repeat(32)}`,
        decision: "allow_once",
        answer: "8080",
      }),
    storeErrorCode("question_not_found"),
    "an unknown id with an answer",
  );
  resolveApproval(fixture.store, {
    approvalId: approval.approvalId,
    decision: "allow_once",
    answer: "8080",
    clientRequestId: "answer-1",
  });
  const retry = resolveApproval(fixture.store, {
    approvalId: approval.approvalId,
    decision: "allow_once",
    answer: "8080",
    clientRequestId: "answer-1",
  });
  assert.deepEqual(retry.events, [], "a retried answer writes nothing");
  for (
    const again of [
      { decision: "allow_once" as const, answer: "9090" },
      { decision: "deny" as const },
    ]
  ) {
    assert.throws(
      () => resolveApproval(fixture.store, { approvalId: approval.approvalId, ...again }),
      storeErrorCode("question_already_answered"),
      JSON.stringify(again),
    );
  }
});

Deno.test("an answer for an approval that asks no question is question_not_found", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(fixture.store, threadId);
  activateRun(fixture.store, runId);
  const budget = requestBudgetApproval(fixture.store, {
    runId,
    summary: "Budget reached",
    budget: { kind: "modelCalls", limit: 2, used: 2, extension: 2 },
  }).result;
  assert.throws(
    () =>
      resolveApproval(fixture.store, {
        approvalId: budget.approvalId,
        decision: "allow_once",
        answer: "yes",
      }),
    storeErrorCode("question_not_found"),
  );
  assert.equal(fixture.store.read((db) => readApproval(db, budget.approvalId))?.status, "pending");
});

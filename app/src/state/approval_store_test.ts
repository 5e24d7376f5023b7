import assert from "node:assert/strict";
import { fakeCall, rpcFailure } from "./_fake_call.ts";
import {
  answers,
  approvals,
  awaitingThreads,
  landApprovals,
  loadApprovals,
  resetApprovals,
  respondToApproval,
} from "./approval_store.ts";
import { APPROVAL_CREATED_AT, approvalFixture } from "./_approval_fixture.ts";

const TS = APPROVAL_CREATED_AT;

const approval = approvalFixture;

Deno.test("respond: sends the decision with a trimmed message and lands the answer", async () => {
  resetApprovals();
  landApprovals([approval()]);
  assert.deepEqual([...awaitingThreads.value], ["thread_1"]);
  const denied = approval({
    status: "denied",
    decision: "deny",
    message: "use the test task",
    resolvedAt: TS,
  });
  const fake = fakeCall({ "approval.respond": () => ({ approval: denied }) });
  assert.equal(
    await respondToApproval("approval_1", "deny", "  use the test task ", fake.call),
    true,
  );
  const params = fake.calls[0]?.params ?? {};
  assert.equal(params.decision, "deny");
  assert.equal(params.message, "use the test task");
  assert.equal(typeof params.clientRequestId, "string");
  assert.equal(approvals.value.byId["approval_1"]?.status, "denied");
  assert.deepEqual([...awaitingThreads.value], [], "the badge goes with the answer");
  assert.deepEqual(answers.value["approval_1"], { sending: null, failure: null });
});

Deno.test("respond: a blank message is not sent", async () => {
  resetApprovals();
  landApprovals([approval()]);
  const fake = fakeCall({
    "approval.respond": () => ({
      approval: approval({ status: "allowed", decision: "allow_once", resolvedAt: TS }),
    }),
  });
  await respondToApproval("approval_1", "allow_once", "   ", fake.call);
  assert.equal("message" in (fake.calls[0]?.params ?? {}), false);
});

Deno.test("respond: a refusal is kept with its reason and the thread's approvals reloaded", async () => {
  resetApprovals();
  landApprovals([approval()]);
  const cancelled = approval({ status: "cancelled", resolvedAt: TS });
  const fake = fakeCall({
    "approval.respond": () => {
      throw rpcFailure("approval_already_resolved", "Approval approval_1 was already resolved");
    },
    "approval.list": () => ({ approvals: [cancelled] }),
  });
  assert.equal(await respondToApproval("approval_1", "allow_once", undefined, fake.call), false);
  assert.equal(answers.value["approval_1"]?.failure?.code, "approval_already_resolved");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(fake.calls.map((c) => c.method), ["approval.respond", "approval.list"]);
  assert.deepEqual(fake.calls[1]?.params, { threadId: "thread_1" });
  assert.equal(approvals.value.byId["approval_1"]?.status, "cancelled", "how it ended is shown");
});

Deno.test("respond: the same answer again reuses its clientRequestId, another gets its own", async () => {
  resetApprovals();
  landApprovals([approval()]);
  const fake = fakeCall({
    "approval.respond": () => {
      throw rpcFailure("internal_error", "lost");
    },
    "approval.list": () => ({ approvals: [] }),
  });
  await respondToApproval("approval_1", "allow_once", undefined, fake.call);
  await respondToApproval("approval_1", "allow_once", undefined, fake.call);
  await respondToApproval("approval_1", "deny", undefined, fake.call);
  const ids = fake.calls.filter((c) => c.method === "approval.respond").map((c) =>
    c.params.clientRequestId
  );
  assert.equal(ids[0], ids[1], "a retried answer must be idempotent");
  assert.notEqual(ids[0], ids[2], "a different answer is a new request");
});

Deno.test("respond: a second click while the first is on its way is ignored", async () => {
  resetApprovals();
  landApprovals([approval()]);
  let release: () => void = () => {};
  const fake = fakeCall({
    "approval.respond": () =>
      new Promise((resolve) => {
        release = () =>
          resolve({
            approval: approval({ status: "allowed", decision: "allow_once", resolvedAt: TS }),
          });
      }),
  });
  const first = respondToApproval("approval_1", "allow_once", undefined, fake.call);
  assert.equal(answers.value["approval_1"]?.sending, "allow_once");
  assert.equal(await respondToApproval("approval_1", "deny", undefined, fake.call), false);
  release();
  assert.equal(await first, true);
  assert.equal(fake.calls.length, 1);
});

Deno.test("loadApprovals: a runtime without approval.list leaves the state as it was", async () => {
  resetApprovals();
  landApprovals([approval()]);
  const before = approvals.value;
  const fake = fakeCall({});
  await loadApprovals({ status: "pending" }, fake.call);
  assert.equal(approvals.value, before);
});

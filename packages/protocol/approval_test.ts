import assert from "node:assert/strict";
import { Approval, ERROR_REASON_CODES, newId, parseParams, RpcError, RunStatus } from "./mod.ts";

function approval(overrides: Record<string, unknown> = {}) {
  return {
    approvalId: newId("approval"),
    runId: newId("run"),
    threadId: newId("thread"),
    toolCallItemId: newId("item"),
    tool: "process_start",
    summary: "Run rm -rf build",
    target: "rm -rf build",
    risk: "process",
    reasonCode: "high_risk_command",
    budget: null,
    rule: null,
    decisions: ["allow_once", "deny"],
    status: "pending",
    decision: null,
    message: null,
    createdAt: "2026-10-01T10:00:00.000Z",
    resolvedAt: null,
    ...overrides,
  };
}

const resolvedAt = "2026-10-01T10:00:05.000Z";

Deno.test("Approval accepts each consistent status, decision and resolvedAt", () => {
  const cases = [
    { status: "pending", decision: null, resolvedAt: null },
    { status: "allowed", decision: "allow_once", resolvedAt },
    {
      status: "allowed",
      decision: "allow_always",
      resolvedAt,
      reasonCode: "permission_ask",
      rule: { tool: "process_start", pattern: "npm test", decision: "allow" },
      decisions: ["allow_once", "allow_thread", "allow_always", "deny"],
    },
    {
      status: "pending",
      reasonCode: "budget_reached",
      toolCallItemId: null,
      tool: null,
      risk: null,
      target: null,
      budget: { kind: "tokens", limit: 1000, used: 1002, extension: 1000 },
    },
    { status: "denied", decision: "deny", resolvedAt, message: "not in this repo" },
    { status: "cancelled", decision: null, resolvedAt },
  ];
  for (const fields of cases) {
    const result = Approval.safeParse(approval(fields));
    assert.ok(result.success, `${JSON.stringify(fields)}: ${result.error?.message}`);
  }
});

Deno.test("Approval refuses inconsistent or unknown fields, naming the path", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ status: "pending", resolvedAt }, "resolvedAt"],
    [{ status: "allowed", decision: "allow_once", resolvedAt: null }, "resolvedAt"],
    [{ status: "allowed", decision: "deny", resolvedAt }, "decision"],
    [{ status: "denied", decision: "allow_once", resolvedAt }, "decision"],
    [{ status: "cancelled", decision: "deny", resolvedAt }, "decision"],
    [{ status: "pending", decision: "allow_once" }, "decision"],
    [{ status: "allowed", decision: "allow_always", resolvedAt }, "decision"],
    [{ decision: "allow_forever" }, "decision"],
    [{ decisions: [] }, "decisions"],
    [{ decisions: ["allow_once", "allow_thread", "deny"] }, "decisions"],
    [{ rule: { tool: "nope", decision: "allow" } }, "rule"],
    [{ reasonCode: "budget" }, "reasonCode"],
    [{ reasonCode: "budget_reached" }, "budget"],
    [{ budget: { kind: "tokens", limit: 1, used: 1, extension: 1 } }, "budget"],
    [{ toolCallItemId: null }, "toolCallItemId"],
    [{ risk: "network" }, "risk"],
    [{ approvalId: newId("item") }, "approvalId"],
    [{ message: "" }, "message"],
    [{ summary: "" }, "summary"],
  ];
  for (const [fields, path] of cases) {
    const result = Approval.safeParse(approval(fields));
    assert.ok(!result.success, `${JSON.stringify(fields)} was accepted`);
    assert.ok(
      result.error.issues.some((issue) => issue.path[0] === path),
      `${JSON.stringify(fields)}: expected an issue at ${path}, got ${result.error.message}`,
    );
  }
});

Deno.test("approval.respond takes the four decisions, with an optional message", () => {
  const approvalId = newId("approval");
  assert.doesNotThrow(() =>
    parseParams("approval.respond", { approvalId, decision: "allow_once" })
  );
  assert.doesNotThrow(() =>
    parseParams("approval.respond", {
      approvalId,
      decision: "deny",
      message: "use the test folder",
      clientRequestId: "c1",
    })
  );
  for (const decision of ["allow_thread", "allow_always"]) {
    assert.doesNotThrow(() => parseParams("approval.respond", { approvalId, decision }));
  }
  for (
    const params of [
      { approvalId, decision: "allow" },
      { approvalId: newId("run"), decision: "deny" },
      { approvalId, decision: "deny", message: "" },
      { approvalId, decision: "deny", extra: 1 },
    ]
  ) {
    assert.throws(
      () => parseParams("approval.respond", params),
      RpcError,
      `${JSON.stringify(params)} was accepted`,
    );
  }
});

Deno.test("approval.list filters by thread and status", () => {
  assert.doesNotThrow(() => parseParams("approval.list", {}));
  assert.doesNotThrow(() =>
    parseParams("approval.list", { threadId: newId("thread"), status: "pending" })
  );
  assert.throws(() => parseParams("approval.list", { status: "waiting" }), RpcError);
});

Deno.test("waiting is a Run status and the approval error codes exist", () => {
  assert.ok(RunStatus.safeParse("waiting").success);
  for (
    const code of [
      "approval_not_found",
      "approval_already_resolved",
      "approval_decision_invalid",
    ] as const
  ) {
    assert.ok(ERROR_REASON_CODES.includes(code), code);
  }
});

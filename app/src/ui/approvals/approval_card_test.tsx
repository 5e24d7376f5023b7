import assert from "node:assert/strict";
import type {
  ApprovalDecision,
  ApprovalReasonCode,
  ApprovalStatus,
  ToolRisk,
} from "@daedalus/client";
import { inEnglish, inLocale, renderedText as text } from "../../_testing.ts";
import { type MessageKey, t } from "../../i18n/i18n.ts";
import { ApprovalCard, outcomeText } from "./ApprovalCard.tsx";
import { APPROVAL_CREATED_AT, approvalFixture } from "../../state/_approval_fixture.ts";

const TS = APPROVAL_CREATED_AT;

const approval = approvalFixture;

// Records over the protocol's unions: a new value does not compile until it has copy here.
const REASONS: Record<ApprovalReasonCode, true> = {
  permission_ask: true,
  high_risk_command: true,
  loop_detected: true,
  budget_reached: true,
  user_question: true,
};
const RISKS: Record<ToolRisk, true> = {
  read: true,
  write: true,
  process: true,
  session: true,
  memory: true,
};
const DECISIONS: Record<ApprovalDecision, true> = {
  allow_once: true,
  allow_thread: true,
  allow_always: true,
  deny: true,
};

Deno.test("approval copy: every reason, risk and decision is worded in both locales", () => {
  const keys = [
    ...Object.keys(REASONS).map((code) => `approval.reason.${code}`),
    ...Object.keys(RISKS).map((risk) => `approval.risk.${risk}`),
    ...Object.keys(DECISIONS).map((d) => `approval.decision.${d}`),
    ...Object.keys(DECISIONS).map((d) => `approval.resolved.${d}`),
  ] as MessageKey[];
  for (const name of ["en", "zh-CN"] as const) {
    inLocale(name, () => {
      for (const key of keys) {
        const copy = t(key);
        assert.notEqual(copy, key, `${name} has no copy for ${key}`);
        assert.ok(copy.trim().length > 1, `${name}: ${key} is blank`);
      }
    });
  }
});

Deno.test("approval outcome: how each resolution reads", () => {
  const resolved = (
    status: ApprovalStatus,
    decision: ApprovalDecision | null,
    message = null as string | null,
  ) => approval({ status, decision, message, resolvedAt: TS });
  inEnglish(() => {
    assert.equal(outcomeText(resolved("allowed", "allow_once")), "Allowed once");
    assert.equal(outcomeText(resolved("allowed", "allow_thread")), "Allowed for this thread");
    assert.match(outcomeText(resolved("allowed", "allow_always")), /rule was added/);
    assert.equal(outcomeText(resolved("denied", "deny")), "Denied");
    assert.equal(outcomeText(resolved("denied", "deny", "not now")), "Denied: “not now”");
    assert.match(outcomeText(resolved("cancelled", null)), /^Cancelled/);
  });
  inLocale("zh-CN", () => {
    assert.equal(outcomeText(resolved("denied", "deny", "换个方法")), "已拒绝：“换个方法”");
  });
});

Deno.test("approval card: a resolved approval shows its outcome, with no buttons", () => {
  inEnglish(() => {
    const card = ApprovalCard({
      approval: approval({ status: "denied", decision: "deny", message: "no", resolvedAt: TS }),
      args: { command: "echo hi" },
    })!;
    const rendered = text(card);
    assert.match(rendered, /Approval.*process_start.*Denied: “no”.*Run echo hi/);
    assert.doesNotMatch(rendered, /Allow once/);
    assert.match(String((card.props as { class: string }).class), /status-denied/);
  });
});

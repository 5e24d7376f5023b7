import assert from "node:assert/strict";
import type { Approval } from "@daedalus/client";
import { inEnglish, inLocale, renderedText as text } from "../../_testing.ts";
import { QuestionCard, questionOutcome } from "./QuestionCard.tsx";
import { APPROVAL_CREATED_AT, approvalFixture } from "../../state/_approval_fixture.ts";
import { runAwaitsAnswer } from "../../state/approvals.ts";

const TS = APPROVAL_CREATED_AT;

/** A pending ask_user question with two choices, changed field by field with `over`. */
function question(over: Partial<Approval> = {}): Approval {
  return approvalFixture({
    tool: "ask_user",
    summary: "Which port?",
    target: null,
    risk: "read",
    reasonCode: "user_question",
    decisions: ["allow_once", "deny"],
    rule: null,
    question: { text: "Which port?", choices: ["8080", "9090"] },
    ...over,
  });
}

Deno.test("question outcome: how each resolution reads, in both locales", () => {
  const cases: [string, Partial<Approval>, string, string][] = [
    ["a typed answer", { answer: "port 8080" }, "Answered: port 8080", "已回答：port 8080"],
    ["a choice", { answer: "9090" }, "Answered: 9090", "已回答：9090"],
    ["several choices", { answer: ["linux", "mac"] }, "Answered: linux, mac", "已回答：linux, mac"],
  ];
  for (const [name, over, en, zh] of cases) {
    const resolved = question({
      status: "allowed",
      decision: "allow_once",
      resolvedAt: TS,
      ...over,
    });
    inEnglish(() => assert.equal(questionOutcome(resolved), en, name));
    inLocale("zh-CN", () => assert.equal(questionOutcome(resolved), zh, name));
  }
  inEnglish(() => {
    assert.equal(
      questionOutcome(question({ status: "denied", decision: "deny", resolvedAt: TS })),
      "Declined to answer",
    );
    assert.equal(
      questionOutcome(
        question({ status: "denied", decision: "deny", message: "later", resolvedAt: TS }),
      ),
      "Declined: “later”",
    );
    assert.match(
      questionOutcome(question({ status: "cancelled", resolvedAt: TS })),
      /^Cancelled/,
    );
  });
});

Deno.test("question card: an answered question shows the question and the answer, no buttons", () => {
  inEnglish(() => {
    const card = QuestionCard({
      approval: question({
        status: "allowed",
        decision: "allow_once",
        answer: "9090",
        resolvedAt: TS,
      }),
    })!;
    const rendered = text(card);
    assert.match(rendered, /Question.*Answered: 9090.*Which port\?/);
    assert.doesNotMatch(rendered, /Decline/);
  });
});

Deno.test("question card: an approval that asks no question renders nothing", () => {
  assert.equal(QuestionCard({ approval: approvalFixture() }), null);
});

Deno.test("runAwaitsAnswer: only a Run whose pending approval is a question", () => {
  const byId = (list: Approval[]) => ({
    byId: Object.fromEntries(list.map((a) => [a.approvalId, a])),
  });
  assert.equal(runAwaitsAnswer(byId([question()]), "run_1"), true);
  assert.equal(runAwaitsAnswer(byId([question()]), "run_2"), false, "another Run");
  assert.equal(runAwaitsAnswer(byId([approvalFixture()]), "run_1"), false, "an approval");
  assert.equal(
    runAwaitsAnswer(
      byId([question({ status: "allowed", decision: "allow_once", answer: "1", resolvedAt: TS })]),
      "run_1",
    ),
    false,
    "answered",
  );
});

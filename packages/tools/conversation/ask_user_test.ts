/**
 * `ask_user` through the one wrapper: a valid question becomes an approval of reason
 * `user_question` carrying it (only where the gate can ask), bad arguments are
 * `invalid_arguments` naming the field, and every preset lets it through.
 */
import assert from "node:assert/strict";
import { QUESTION_CHOICES_MAX_COUNT, QUESTION_TEXT_MAX_CHARS } from "@daedalus/protocol";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import { createRunGate } from "../gate.ts";
import { askUserTool, userQuestion } from "./ask_user.ts";

Deno.test("ask_user asks: the result awaits a user_question approval carrying the question", async () => {
  await using ws = await createTestWorkspace();
  for (const policy of ["read_only", "ask", "workspace_write", "full_access"] as const) {
    const gate = createRunGate({ executionPolicy: policy, homeDir: ws.base, askUser: true });
    const cases: [string, unknown, unknown][] = [
      ["free text", { question: "Which port?" }, { text: "Which port?" }],
      [
        "choices",
        { question: "Deploy now?", choices: ["yes", "no"] },
        { text: "Deploy now?", choices: ["yes", "no"] },
      ],
      [
        "several choices",
        { question: "Which targets?", choices: ["linux", "mac"], multiple: true },
        { text: "Which targets?", choices: ["linux", "mac"], multiple: true },
      ],
      [
        "multiple false is left out",
        { question: "Which?", choices: ["a"], multiple: false },
        { text: "Which?", choices: ["a"] },
      ],
    ];
    for (const [name, args, question] of cases) {
      const result = await executeTool(askUserTool, args, {
        ...ws.context,
        executionPolicy: policy,
        gate,
      });
      assert.ok(result.awaitsApproval, `${policy} ${name}: asks (${result.content})`);
      assert.equal(result.awaitsApproval.reasonCode, "user_question", `${policy} ${name}`);
      assert.deepEqual(result.awaitsApproval.question, question, `${policy} ${name}: question`);
      assert.equal(result.awaitsApproval.rule, null, `${policy} ${name}: no rule`);
      assert.equal(result.awaitsApproval.target, null, `${policy} ${name}: no target`);
      assert.equal(result.errorCode, "question_pending", `${policy} ${name}`);
    }
  }
});

Deno.test("ask_user's summary is the question on one bounded line", async () => {
  await using ws = await createTestWorkspace();
  const gate = createRunGate({ executionPolicy: "ask", homeDir: ws.base, askUser: true });
  const short = await executeTool(askUserTool, { question: "Which\n  port   now?" }, {
    ...ws.context,
    gate,
  });
  assert.equal(short.awaitsApproval?.summary, "Which port now?");
  const long = await executeTool(askUserTool, { question: "q".repeat(1500) }, {
    ...ws.context,
    gate,
  });
  assert.equal(long.awaitsApproval?.summary.length, 500, "cut to APPROVAL_SUMMARY_MAX_CHARS");
  assert.ok(long.awaitsApproval?.summary.endsWith("…"), "a cut summary says so");
  assert.equal(long.awaitsApproval?.question?.text.length, 1500, "the question stays whole");
});

Deno.test("ask_user where nobody can answer fails with question_unavailable", async () => {
  await using ws = await createTestWorkspace();
  const noAsk = createRunGate({ executionPolicy: "full_access", homeDir: ws.base });
  for (
    const [name, context] of [["no gate", ws.context], ["a gate that cannot ask", {
      ...ws.context,
      gate: noAsk,
    }]] as const
  ) {
    const result = await executeTool(askUserTool, { question: "Which port?" }, context);
    assert.equal(result.awaitsApproval, undefined, `${name}: nothing waits`);
    assert.equal(result.isError, true, name);
    assert.equal(result.errorCode, "question_unavailable", name);
  }
});

Deno.test("ask_user refuses bad arguments with invalid_arguments naming the field", async () => {
  await using ws = await createTestWorkspace();
  const gate = createRunGate({ executionPolicy: "ask", homeDir: ws.base, askUser: true });
  const tooMany = Array.from({ length: QUESTION_CHOICES_MAX_COUNT + 1 }, (_, i) => `c${i}`);
  const cases: [string, unknown, RegExp][] = [
    ["no question", {}, /question/],
    ["blank question", { question: "   " }, /question/],
    ["question too long", { question: "x".repeat(QUESTION_TEXT_MAX_CHARS + 1) }, /question/],
    ["empty choices", { question: "q", choices: [] }, /choices/],
    ["too many choices", { question: "q", choices: tooMany }, /choices/],
    ["blank choice", { question: "q", choices: ["a", " "] }, /choices\.1/],
    [
      "repeated choice",
      { question: "q", choices: ["a", "a"] },
      /choices: choices must be distinct/,
    ],
    ["multiple without choices", { question: "q", multiple: true }, /multiple needs choices/],
    ["unknown field", { question: "q", urgent: true }, /urgent/],
  ];
  for (const [name, args, message] of cases) {
    const result = await executeTool(askUserTool, args, { ...ws.context, gate });
    assert.equal(result.errorCode, "invalid_arguments", `${name}: ${result.content}`);
    assert.match(result.content, message, name);
    assert.equal(result.awaitsApproval, undefined, `${name}: asks nothing`);
  }
});

Deno.test("userQuestion keeps only the fields a question has", () => {
  assert.deepEqual(userQuestion({ question: "q" }), { text: "q" });
  assert.deepEqual(userQuestion({ question: "q", multiple: false, choices: ["a"] }), {
    text: "q",
    choices: ["a"],
  });
});

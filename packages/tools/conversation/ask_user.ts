/**
 * The `ask_user` tool: the model asks the user a question and the Run waits for the answer
 * exactly as it waits for an approval. The call never runs to a result of its own: it hands
 * the runtime an approval of reason `user_question` carrying the question (`awaitsApproval`),
 * the Run turns `waiting`, and the user's answer (`approval.respond` with `answer`) is
 * recorded as the call's result by the store, in the transaction that resumes the Run.
 *
 * Where nobody can answer (a gate built without `askUser`: a test's context, the sandbox),
 * the call fails with `question_unavailable`, so the model goes on without it.
 *
 * @module
 */
import { z } from "zod";
import {
  APPROVAL_SUMMARY_MAX_CHARS,
  QUESTION_CHOICE_MAX_CHARS,
  QUESTION_CHOICES_MAX_COUNT,
  QUESTION_TEXT_MAX_CHARS,
  type UserQuestion,
} from "@daedalus/protocol";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import description from "./ask_user.md" with { type: "text" };

/** Parameters of {@linkcode askUserTool}. */
export interface AskUserParams {
  /** The question. */
  question: string;
  /** The answers offered (distinct); absent: a free-text answer. */
  choices?: string[];
  /** Whether several choices may be picked (needs `choices`). */
  multiple?: boolean;
}

/** The schema of {@linkcode AskUserParams}. */
export const AskUserParams: ToolParams<AskUserParams> = z.strictObject({
  question: z.string().trim().min(1).max(QUESTION_TEXT_MAX_CHARS),
  choices: z.array(z.string().trim().min(1).max(QUESTION_CHOICE_MAX_CHARS)).min(1)
    .max(QUESTION_CHOICES_MAX_COUNT).optional(),
  multiple: z.boolean().optional(),
}).superRefine((params, context) => {
  const choices = params.choices ?? [];
  if (new Set(choices).size !== choices.length) {
    context.addIssue({ code: "custom", path: ["choices"], message: "choices must be distinct" });
  }
  if (params.multiple === true && params.choices === undefined) {
    context.addIssue({ code: "custom", path: ["multiple"], message: "multiple needs choices" });
  }
});

/**
 * The question a call asks, as the approval carries it (no empty optional fields).
 *
 * @param params the validated parameters
 * @returns the question
 */
export function userQuestion(params: AskUserParams): UserQuestion {
  return {
    text: params.question,
    ...(params.choices !== undefined ? { choices: params.choices } : {}),
    ...(params.multiple === true && params.choices !== undefined ? { multiple: true } : {}),
  };
}

/** One line of the question for lists and notifications (the card shows it whole). */
function summaryOf(question: string): string {
  const line = question.replace(/\s+/g, " ").trim();
  return line.length <= APPROVAL_SUMMARY_MAX_CHARS
    ? line
    : `${line.slice(0, APPROVAL_SUMMARY_MAX_CHARS - 1)}…`;
}

/** Asks the user a question; the Run waits for the answer. */
export const askUserTool: ToolDefinition<AskUserParams> = defineTool({
  id: "ask_user",
  // deno fmt ends the file with a newline; the model is shown the text without it.
  description: description.trimEnd(),
  params: AskUserParams,
  // It changes nothing, but a question is asked alone: the calls after it wait for the answer.
  mutating: true,
  risk: "read",
  run: (params, context) => {
    if (context.gate?.askUser !== true) {
      return Promise.resolve({
        isError: true,
        errorCode: "question_unavailable",
        content: "Nobody can answer a question in this Run; the question was not asked. Go on " +
          "with what you know and say in your answer what you would have asked",
      });
    }
    return Promise.resolve({
      isError: true,
      errorCode: "question_pending",
      content: "The question waits for the user's answer",
      awaitsApproval: {
        reasonCode: "user_question",
        summary: summaryOf(params.question),
        target: null,
        rule: null,
        question: userQuestion(params),
      },
    });
  },
});

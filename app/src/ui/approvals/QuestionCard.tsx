import { useRef, useState } from "preact/hooks";
import type { Approval, ApprovalDecision } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";
import { type AnswerState, respondToApproval } from "../../state/approval_store.ts";
import { FailureLine } from "../settings/FailureLine.tsx";

/** The protocol's `QUESTION_ANSWER_MAX_CHARS`: a longer answer would be refused. */
const ANSWER_MAX_CHARS = 4000;

/** Sends an answer (allow_once with `answer`) or a refusal (deny). */
export type QuestionRespond = (
  approvalId: string,
  decision: ApprovalDecision,
  answer?: string | string[],
) => unknown;

const liveRespond: QuestionRespond = (approvalId, decision, answer) =>
  respondToApproval(approvalId, decision, undefined, undefined, answer);

/**
 * The card of an `ask_user` question, under its call in the feed: while pending, the
 * question and its choices as buttons (checkboxes and Send when several may be picked), or
 * a text box (Enter sends, Shift+Enter adds a line), and Decline; once answered, the answer.
 */
export function QuestionCard(props: {
  approval: Approval;
  answer?: AnswerState;
  /** Sends an answer; the app's connection by default. */
  respond?: QuestionRespond;
}) {
  const { approval } = props;
  const question = approval.question;
  const titleId = `question-title-${approval.approvalId}`;
  if (!question) return null;
  if (approval.status !== "pending") {
    return (
      <section
        class={`approval-card question-card resolved status-${approval.status}`}
        aria-labelledby={titleId}
      >
        <header>
          <span id={titleId} class="approval-title">{t("question.titleResolved")}</span>
          <span class="approval-outcome" role="status">{questionOutcome(approval)}</span>
        </header>
        <p class="approval-summary question-text">{question.text}</p>
      </section>
    );
  }
  return <PendingQuestion {...props} titleId={titleId} />;
}

function PendingQuestion(props: {
  approval: Approval;
  answer?: AnswerState;
  respond?: QuestionRespond;
  titleId: string;
}) {
  const { approval, answer, titleId } = props;
  const question = approval.question!;
  const respond = props.respond ?? liveRespond;
  const [text, setText] = useState("");
  const [picked, setPicked] = useState<readonly string[]>([]);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const sending = answer?.sending ?? null;
  const keysId = `question-keys-${approval.approvalId}`;
  const send = (decision: ApprovalDecision, given?: string | string[]) => {
    if (sending) return;
    void respond(approval.approvalId, decision, given);
  };
  const choices = question.choices ?? null;
  const trimmed = text.trim();
  const onTextKey = (event: KeyboardEvent) => {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    if (trimmed !== "") send("allow_once", trimmed);
  };
  const toggle = (choice: string) =>
    setPicked((now) =>
      now.includes(choice)
        ? now.filter((c) => c !== choice)
        // In the question's order, whatever order they were ticked in.
        : choices!.filter((c) => c === choice || now.includes(c))
    );
  return (
    <section
      class="approval-card question-card pending"
      aria-labelledby={titleId}
      aria-describedby={keysId}
      aria-busy={sending !== null}
    >
      <header>
        <span id={titleId} class="approval-title">{t("question.title")}</span>
      </header>
      <p class="approval-summary question-text">{question.text}</p>
      {choices !== null && question.multiple !== true && (
        <div class="question-choices" role="group" aria-labelledby={titleId}>
          {choices.map((choice) => (
            <button
              key={choice}
              type="button"
              class="question-choice"
              aria-disabled={sending !== null}
              onClick={() => send("allow_once", choice)}
            >
              {choice}
            </button>
          ))}
        </div>
      )}
      {choices !== null && question.multiple === true && (
        <fieldset class="question-several">
          <legend class="muted">{t("question.pickSeveral")}</legend>
          {choices.map((choice) => (
            <label key={choice} class="question-check">
              <input
                type="checkbox"
                checked={picked.includes(choice)}
                disabled={sending !== null}
                onChange={() => toggle(choice)}
              />
              <span>{choice}</span>
            </label>
          ))}
        </fieldset>
      )}
      {choices === null && (
        <label class="approval-message question-answer">
          <span>{t("question.answerLabel")}</span>
          <textarea
            ref={textRef}
            rows={2}
            maxLength={ANSWER_MAX_CHARS}
            value={text}
            disabled={sending !== null}
            onInput={(event) => setText(event.currentTarget.value)}
            onKeyDown={onTextKey}
          />
        </label>
      )}
      <div class="approval-actions">
        {choices === null && (
          <button
            type="button"
            class="approval-allow"
            aria-disabled={sending !== null || trimmed === ""}
            onClick={() => trimmed !== "" && send("allow_once", trimmed)}
          >
            {t("question.send")}
          </button>
        )}
        {choices !== null && question.multiple === true && (
          <button
            type="button"
            class="approval-allow"
            aria-disabled={sending !== null || picked.length === 0}
            onClick={() => picked.length > 0 && send("allow_once", [...picked])}
          >
            {t("question.send")}
          </button>
        )}
        <button
          type="button"
          class="approval-deny"
          data-decision="deny"
          aria-disabled={sending !== null}
          onClick={() => send("deny")}
        >
          {t("question.decline")}
        </button>
      </div>
      <p id={keysId} class="muted approval-keys">
        {t(
          choices === null
            ? "question.keysText"
            : question.multiple === true
            ? "question.keysSeveral"
            : "question.keysChoices",
        )}
      </p>
      {sending && <p role="status" class="muted">{t("approval.sending")}</p>}
      {answer?.failure && <FailureLine failure={answer.failure} />}
    </section>
  );
}

/**
 * How an answered question ended, in words.
 *
 * @param approval a resolved question
 * @returns "Answered: …", "Declined…", "Cancelled: …"
 */
export function questionOutcome(approval: Approval): string {
  if (approval.status === "cancelled" || approval.decision === null) {
    return t("question.cancelled");
  }
  if (approval.decision === "deny") {
    return approval.message
      ? t("question.declinedMessage", { message: approval.message })
      : t("question.declined");
  }
  const given = approval.answer;
  const shown = given === undefined ? "" : typeof given === "string" ? given : given.join(", ");
  return t("question.answered", { answer: shown });
}

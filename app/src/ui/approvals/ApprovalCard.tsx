import { useRef, useState } from "preact/hooks";
import type { Approval, ApprovalDecision, Item } from "@daedalus/client";
import { type MessageKey, t } from "../../i18n/i18n.ts";
import { approvalOfItem, budgetApprovalOfRun } from "../../state/approvals.ts";
import {
  answers,
  type AnswerState,
  approvals,
  respondToApproval,
} from "../../state/approval_store.ts";
import { type ApprovalPreview, approvalPreview } from "../../state/approval_preview.ts";
import { NumberedLines } from "../files/NumberedLines.tsx";
import { FailureLine } from "../settings/FailureLine.tsx";
import { QuestionCard } from "./QuestionCard.tsx";

/** The protocol's `APPROVAL_MESSAGE_MAX_CHARS`: a longer message would be refused. */
const MESSAGE_MAX_CHARS = 4000;

/** The buttons in the order the card shows them (only those the approval accepts). */
const DECISION_ORDER: readonly ApprovalDecision[] = [
  "allow_once",
  "allow_thread",
  "allow_always",
  "deny",
];

/**
 * The approval of a tool call, placed under its card in the feed; nothing when the call
 * never waited for the user. Re-renders on its own when the approval or its answer
 * changes (the feed row around it does not).
 */
export function ApprovalSlot(props: { item: Item }) {
  const approval = approvalOfItem(approvals.value, props.item.id);
  if (!approval) return null;
  // A question the agent asks (`ask_user`) is answered, not allowed: a card of its own.
  if (approval.question) {
    return <QuestionCard approval={approval} answer={answers.value[approval.approvalId]} />;
  }
  return (
    <ApprovalCard
      approval={approval}
      args={props.item.data.arguments}
      answer={answers.value[approval.approvalId]}
    />
  );
}

/**
 * A Run's budget approval, shown with its progress while it waits (and its outcome after):
 * nothing when the Run never reached a budget.
 */
export function BudgetApprovalSlot(props: { runId: string }) {
  const approval = budgetApprovalOfRun(approvals.value, props.runId);
  if (!approval) return null;
  return (
    <ApprovalCard approval={approval} args={null} answer={answers.value[approval.approvalId]} />
  );
}

interface CardProps {
  approval: Approval;
  /** The waiting call's arguments (what the preview shows). */
  args: unknown;
  answer?: AnswerState;
  /** Sends an answer; the app's connection by default. */
  respond?: (approvalId: string, decision: ApprovalDecision, message?: string) => unknown;
}

/**
 * One approval: while pending, what the call would do (tool, summary, target, a diff of a
 * write or edit, the command of a process), its risk and why it asks, a button per answer
 * it accepts and an optional message for Deny; once answered, how it ended.
 *
 * Keys (documented on the card): Enter on the card allows once; Esc moves to the message
 * field; Enter there denies with the message (Shift+Enter adds a line); Esc there goes
 * back to the first button.
 */
export function ApprovalCard(props: CardProps) {
  const { approval } = props;
  const titleId = `approval-title-${approval.approvalId}`;
  if (approval.status !== "pending") {
    return (
      <section
        class={`approval-card resolved status-${approval.status}`}
        aria-labelledby={titleId}
      >
        <header>
          <span id={titleId} class="approval-title">{t("approval.titleResolved")}</span>
          {approval.tool !== null && <code>{approval.tool}</code>}
          <span class="approval-outcome" role="status">{outcomeText(approval)}</span>
        </header>
        <p class="approval-summary">{approval.summary}</p>
      </section>
    );
  }
  return <PendingCard {...props} titleId={titleId} />;
}

function PendingCard(props: CardProps & { titleId: string }) {
  const { approval, answer, titleId } = props;
  const respond = props.respond ?? respondToApproval;
  const [message, setMessage] = useState("");
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const firstButton = useRef<HTMLButtonElement>(null);
  const decisions = DECISION_ORDER.filter((d) => approval.decisions.includes(d));
  const canDeny = decisions.includes("deny");
  // A budget is the Run's: no call, no preview, and a denial ends the Run (no message).
  const budget = approval.budget;
  const sending = answer?.sending ?? null;
  const send = (decision: ApprovalDecision) => {
    if (sending) return;
    void respond(approval.approvalId, decision, decision === "deny" ? message : undefined);
  };
  const keysId = `approval-keys-${approval.approvalId}`;
  const preview = approval.tool === null
    ? { kind: "none" as const }
    : approvalPreview(approval.tool, props.args);
  // A command preview already shows the command line the target would repeat.
  const previewShowsTarget = preview.kind === "command" && preview.command === approval.target;
  const onCardKey = (event: KeyboardEvent) => {
    const inMessage = event.target === messageRef.current;
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      (inMessage ? firstButton.current : messageRef.current ?? firstButton.current)?.focus();
      return;
    }
    if (event.key !== "Enter" || event.isComposing) return;
    if (inMessage && !event.shiftKey && canDeny && !budget) {
      event.preventDefault();
      send("deny");
    } else if (event.target === event.currentTarget && decisions.includes("allow_once")) {
      event.preventDefault();
      send("allow_once");
    }
  };
  return (
    <section
      class={`approval-card pending ${budget ? "budget" : `risk-${approval.risk}`}`}
      aria-labelledby={titleId}
      aria-describedby={keysId}
      aria-busy={sending !== null}
      tabIndex={0}
      onKeyDown={onCardKey}
    >
      <header>
        <span id={titleId} class="approval-title">
          {t(budget ? "approval.titleBudget" : "approval.title")}
        </span>
        {approval.tool !== null && <code>{approval.tool}</code>}
      </header>
      <p class="approval-summary">{approval.summary}</p>
      <dl class="tool-facts">
        {approval.target !== null && !previewShowsTarget && (
          <div>
            <dt>{t("approval.target")}</dt>
            <dd>
              <code>{approval.target}</code>
            </dd>
          </div>
        )}
        {approval.risk !== null && (
          <div>
            <dt>{t("approval.risk")}</dt>
            <dd>{t(`approval.risk.${approval.risk}` as MessageKey)}</dd>
          </div>
        )}
        <div>
          <dt>{t("approval.why")}</dt>
          <dd>
            {t(`approval.reason.${approval.reasonCode}` as MessageKey)}{" "}
            <code class="reason-code">{approval.reasonCode}</code>
          </dd>
        </div>
      </dl>
      <Preview preview={preview} />
      {canDeny && !budget && (
        <label class="approval-message">
          <span>{t("approval.message")}</span>
          <textarea
            ref={messageRef}
            rows={2}
            maxLength={MESSAGE_MAX_CHARS}
            value={message}
            disabled={sending !== null}
            onInput={(event) => setMessage(event.currentTarget.value)}
          />
        </label>
      )}
      <div class="approval-actions">
        {decisions.map((decision, index) => (
          <button
            key={decision}
            ref={index === 0 ? firstButton : undefined}
            type="button"
            class={decision === "deny" ? "approval-deny" : "approval-allow"}
            data-decision={decision}
            aria-disabled={sending !== null}
            onClick={() => send(decision)}
          >
            {budget
              ? t(decision === "deny" ? "approval.budget.stop" : "approval.budget.continue")
              : t(`approval.decision.${decision}` as MessageKey)}
          </button>
        ))}
      </div>
      {approval.rule && decisions.some((d) => d === "allow_thread" || d === "allow_always") && (
        <p class="muted approval-rule">
          {t("approval.rule")}{" "}
          <code>
            {approval.rule.tool}
            {approval.rule.pattern === undefined ? "" : ` ${approval.rule.pattern}`}
          </code>
        </p>
      )}
      <p id={keysId} class="muted approval-keys">
        {t(budget ? "approval.keysBudget" : "approval.keys")}
      </p>
      {sending && <p role="status" class="muted">{t("approval.sending")}</p>}
      {answer?.failure && <FailureLine failure={answer.failure} />}
    </section>
  );
}

function Preview(props: { preview: ApprovalPreview }) {
  const { preview } = props;
  if (preview.kind === "none") return null;
  if (preview.kind === "command") {
    return (
      <div class="approval-preview">
        <span class="muted">{t("approval.command")}</span>
        <pre class="approval-command"><code>{preview.command}</code></pre>
        {preview.cwd !== null && (
          <p class="muted">
            {t("approval.cwd")} <code>{preview.cwd}</code>
          </p>
        )}
        {preview.background && <p class="muted">{t("approval.background")}</p>}
      </div>
    );
  }
  return (
    <div class="approval-preview">
      <span class="muted">{t(`approval.diff.${preview.mode}` as MessageKey)}</span>
      {preview.lines.length === 0 ? <p class="muted">{t("approval.diff.empty")}</p> : (
        <NumberedLines
          tableClass="diff approval-diff"
          label={t("approval.diff.table")}
          lines={preview.lines.map((line, index) => ({
            key: index,
            numbers: [],
            marker: line.kind === "add" ? "+" : "−",
            rowClass: `diff-${line.kind}`,
            text: line.text,
          }))}
        />
      )}
      {preview.hiddenLines > 0 && (
        <p class="muted">{t("approval.diff.more", { count: preview.hiddenLines })}</p>
      )}
    </div>
  );
}

/**
 * How an answered approval ended, in words.
 *
 * @param approval a resolved approval
 * @returns "Allowed once", "Denied: “…”", "Cancelled: …"
 */
export function outcomeText(approval: Approval): string {
  if (approval.status === "cancelled" || approval.decision === null) {
    return t("approval.resolved.cancelled");
  }
  if (approval.decision === "deny" && approval.message) {
    return t("approval.resolved.denyMessage", { message: approval.message });
  }
  return t(`approval.resolved.${approval.decision}` as MessageKey);
}

import type { Item, TurnSiblings } from "@daedalus/client";
import { memo } from "preact/compat";
import { useState } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import { Markdown } from "../markdown/Markdown.tsx";
import { ToolActivity } from "../tools/ToolActivity.tsx";
import { BudgetApprovalSlot } from "../approvals/ApprovalCard.tsx";
import { isActiveStatus } from "../../state/projection.ts";
import { RunOutcome } from "../run/RunOutcome.tsx";
import { RunProgress } from "../run/RunProgress.tsx";
import { RunFallbackLine } from "../run/RunFallbackLine.tsx";
import { RunUsageLine } from "../run/RunUsageLine.tsx";
import { MessageAttachments } from "../attachments/MessageAttachments.tsx";
import { CopyButton } from "../CopyButton.tsx";
import { onboardingRecord } from "../../state/onboarding.ts";
import type { FeedRow } from "./feed_rows.ts";
import { latestRunId, models, resumeRun, selectedModel, sendAgain } from "../../state/store.ts";
import { canSendAgain } from "../../state/send_again.ts";
import { currentEffort, effortParam } from "../../state/reasoning_effort.ts";
import { MessageTime } from "./MessageTime.tsx";
import { EditButton, MessageEditor, RegenerateButton, SiblingSwitcher } from "./BranchControls.tsx";

/** Repeats a turn's message with the selected model and the composer's effort for it. */
function sendAgainWithComposerEffort(turnId: string): Promise<boolean> {
  const model = models.value.find((m) => `${m.providerId}/${m.id}` === selectedModel.value);
  return sendAgain(turnId, model ? effortParam(model, currentEffort(model)) : undefined);
}

function ItemView(
  props: { item: Item; turnMessage?: boolean; siblings?: TurnSiblings; lastAnswer?: boolean },
) {
  const { item } = props;
  const [editing, setEditing] = useState(false);
  // The local profile's name, when the user gave one, marks their own messages.
  const who = item.role === "user"
    ? onboardingRecord.value.userName ?? t("item.user")
    : t("item.assistant");
  const isUser = item.role === "user";
  const answered = !isUser && item.status === "completed" && item.content !== "";
  return (
    <article class={`message role-${item.role ?? "assistant"}`}>
      <header>
        <span class="author">{who}</span>
        <MessageTime at={item.createdAt} />
        {answered && (
          // the answer as the model wrote it (Markdown source)
          <CopyButton text={item.content} label={t("markdown.copyAnswer")} class="copy-answer" />
        )}
        {answered && props.lastAnswer && <RegenerateButton turnId={item.turnId} />}
        {props.turnMessage && !editing && <EditButton onEdit={() => setEditing(true)} />}
        {isUser && props.siblings && (
          <SiblingSwitcher turnId={item.turnId} siblings={props.siblings} />
        )}
      </header>
      {isUser && editing ? <MessageEditor item={item} onClose={() => setEditing(false)} /> : isUser
        // the user's own text stays plain text
        ? <p class="text">{item.content}</p>
        // assistant Markdown becomes vnodes; raw HTML in it stays text
        : <Markdown text={item.content} streaming={item.status === "streaming"} />}
      {isUser && <MessageAttachments data={item.data} />}
      {item.status === "streaming" && <span class="cursor" aria-hidden="true">▍</span>}
    </article>
  );
}

interface RowProps {
  row: FeedRow;
  /** 1-based position among the loaded rows. */
  position: number;
  /** The number of rows, or -1 while older ones are not loaded. */
  size: number;
}

/**
 * One feed article: a message, a step's tool calls, a Run's move to its fallback model,
 * or the end of a Run (its progress while active, its outcome when failed or cancelled,
 * its usage when completed). `data-key` is what the feed measures and jumps to;
 * `tabIndex=-1` lets a jump move focus to it.
 */
function FeedRowViewInner(props: RowProps) {
  const { row } = props;
  const active = row.kind === "run-end" && isActiveStatus(row.run.status);
  return (
    <div
      role="article"
      class="feed-row"
      data-key={row.key}
      data-turn={row.turnId}
      aria-posinset={props.position}
      aria-setsize={props.size}
      tabIndex={-1}
    >
      {row.kind === "item"
        ? (
          <ItemView
            item={row.item}
            turnMessage={row.turnMessage}
            siblings={row.siblings}
            lastAnswer={row.lastAnswer}
          />
        )
        : row.kind === "tools"
        ? <ToolActivity calls={row.calls} runActive={row.runActive} />
        : row.kind === "run-fallback"
        ? <RunFallbackLine run={row.run} />
        : row.kind === "run-usage"
        ? <RunUsageLine run={row.run} />
        : active
        ? (
          <>
            <RunProgress run={row.run} />
            <BudgetApprovalSlot runId={row.run.id} />
          </>
        )
        : (
          <RunOutcome
            run={row.run}
            onSendAgain={canSendAgain(latestRunId.value, row.run)
              ? () => void sendAgainWithComposerEffort(row.turnId)
              : undefined}
            onResume={canSendAgain(latestRunId.value, row.run)
              ? () => void resumeRun(row.run.id)
              : undefined}
          />
        )}
    </div>
  );
}

/** A row re-renders only when its item or Run changed, or its position did. */
export const FeedRowView = memo(
  FeedRowViewInner,
  (before: RowProps, after: RowProps) =>
    before.row === after.row && before.position === after.position &&
    before.size === after.size,
);

import { type MessageKey, t } from "../../i18n/i18n.ts";
import { approvalOfItem } from "../../state/approvals.ts";
import { approvals } from "../../state/approval_store.ts";
import { ApprovalSlot } from "../approvals/ApprovalCard.tsx";
import { shownDuration } from "../run/duration_text.ts";
import { ToolCard } from "./ToolCard.tsx";
import { ToolProgress } from "./ToolProgress.tsx";
import { ToolIcon } from "./ToolIcon.tsx";
import { toolErrorOf } from "./tool_error.ts";
import { processBadges } from "./tool_facts.ts";
import { summarizeToolCall } from "./tool_summary.ts";
import {
  callDurationMs,
  type ToolCallView,
  toolIdOf,
  type ToolState,
  toolState,
} from "./tool_activity.ts";
import { isDisclosed, toggleDisclosure } from "./tool_disclosure.ts";

/**
 * A call's state as its row reads it, with its approval (reading the approvals here
 * re-renders the row when its approval is asked or answered).
 *
 * @param view the call and its result
 * @param runActive whether its Run is still going
 */
export function readToolState(view: ToolCallView, runActive: boolean): ToolState {
  const approval = view.call ? approvalOfItem(approvals.value, view.call.id) : null;
  return toolState(view, approval?.status === "pending", runActive);
}

/** The mark of a call's state: busy while running, paused while waiting, a tick when done. */
export function StateMark(props: { state: ToolState }) {
  if (props.state === "running") return <span class="tool-spinner" aria-hidden="true" />;
  if (props.state === "waiting-approval") return <span class="tool-pause" aria-hidden="true" />;
  if (props.state !== "completed") return null;
  return (
    <svg class="tool-done" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <path
        d="M3 8.5l3.2 3L13 4.5"
        fill="none"
        stroke="currentColor"
        stroke-width="1.8"
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  );
}

/** The key of a call's row: its call item (or its result, for a result on its own). */
export function toolRowKey(view: ToolCallView): string {
  return `tool:${view.call?.id ?? view.result?.id ?? "?"}`;
}

interface ToolRowProps {
  view: ToolCallView;
  /** Whether the call's Run is still going. */
  runActive: boolean;
  /** The thread's workspace folder, to show paths relative to it. */
  workspaceRoot: string | null;
}

/**
 * One tool call as one line: the tool's icon, a verb and the target, its state and how
 * long it took; a failure's message under it. The line is a button that opens what the
 * call did ({@linkcode ToolCard}). The call's approval card, when it was asked about,
 * stays under the line whether open or not.
 */
export function ToolRow(props: ToolRowProps) {
  const { view } = props;
  const state = readToolState(view, props.runActive);
  const key = toolRowKey(view);
  const open = isDisclosed(key, false);
  const summary = summarizeToolCall(
    toolIdOf(view),
    view.call?.data.arguments,
    props.workspaceRoot,
  );
  // waiting: what it asks to do; running: what it does; else what it did
  const form = state === "waiting-approval" ? ".ask" : state === "running" ? ".active" : "";
  const verb = t(`tool.verb.${summary.verb}${form}` as MessageKey);
  const duration = shownDuration(callDurationMs(view));
  const error = view.result ? toolErrorOf(view.result) : null;
  const bodyId = `${key}:details`;
  // A question waits for the user's answer, not an approval.
  const stateText = state === "waiting-approval" && toolIdOf(view) === "ask_user"
    ? t("question.waiting")
    : t(`tool.state.${state}`);
  return (
    <div class={`tool-row status-${state}${open ? " open" : ""}`} data-tool={toolIdOf(view)}>
      <button
        type="button"
        class="tool-row-line"
        aria-expanded={open}
        aria-controls={open ? bodyId : undefined}
        aria-label={summary.fullTarget === ""
          ? t("tool.rowLabelBare", { verb, state: stateText })
          : t("tool.rowLabel", { verb, target: summary.fullTarget, state: stateText })}
        title={summary.fullTarget || undefined}
        onClick={() => toggleDisclosure(key, false)}
      >
        <ToolIcon kind={summary.kind} />
        <span class="tool-verb">{verb}</span>
        {summary.target !== "" && (
          summary.code
            ? <code class="tool-target">{summary.target}</code>
            : <span class="tool-target">{summary.target}</span>
        )}
        <span class="tool-row-end">
          {processBadges(toolIdOf(view), view.call?.data.arguments).map((badge) => (
            <span key={badge} class="tool-badge">{t(badge)}</span>
          ))}
          <StateMark state={state} />
          {state !== "completed" && <span class="tool-state">{stateText}</span>}
          {duration !== null && <span class="tool-duration">{duration}</span>}
          <span class="tool-chevron" aria-hidden="true" />
        </span>
      </button>
      {view.call && state === "running" && <ToolProgress itemId={view.call.id} />}
      {error && error.message !== "" && <p class="tool-row-error">{error.message}</p>}
      {open && (
        <div class="tool-row-details" id={bodyId}>
          <ToolCard view={view} />
        </div>
      )}
      {view.call && <ApprovalSlot item={view.call} />}
    </div>
  );
}

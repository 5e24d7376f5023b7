import { computed } from "@preact/signals";
import { t } from "../../i18n/i18n.ts";
import { approvalOfItem } from "../../state/approvals.ts";
import { approvals } from "../../state/approval_store.ts";
import { conversation, threads } from "../../state/store.ts";
import { shownDuration } from "../run/duration_text.ts";
import { readToolState, StateMark, ToolRow, toolRowKey } from "./ToolRow.tsx";
import {
  groupDurationMs,
  groupNoun,
  groupOpensByDefault,
  groupState,
  type ToolCallView,
  toolIdOf,
} from "./tool_activity.ts";
import { isDisclosed, toggleDisclosure } from "./tool_disclosure.ts";

/** The open thread's workspace folder (paths on the rows are shown relative to it). */
const workspaceRoot = computed(() => {
  const threadId = conversation.value?.threadId;
  return threadId ? threads.value.byId[threadId]?.workspace?.rootUri ?? null : null;
});

interface ActivityProps {
  /** The step's calls, in the model's order. */
  calls: readonly ToolCallView[];
  /** Whether their Run is still going. */
  runActive: boolean;
}

/**
 * The tool calls of one step: a single call is its row; several fold under one header
 * ("Ran 4 tools", "Read 3 files") with their combined state and duration — open while
 * one runs, waits for the user or failed, or was asked about; folded once the step is
 * done, until the user opens it.
 */
export function ToolActivity(props: ActivityProps) {
  const { calls, runActive } = props;
  const root = workspaceRoot.value;
  if (calls.length === 1) {
    return <ToolRow view={calls[0]!} runActive={runActive} workspaceRoot={root} />;
  }
  const states = calls.map((view) => readToolState(view, runActive));
  const asked = calls.some((view) =>
    view.call !== null && approvalOfItem(approvals.value, view.call.id) !== null
  );
  const key = `group:${toolRowKey(calls[0]!)}`;
  const byDefault = groupOpensByDefault(states, asked);
  const open = isDisclosed(key, byDefault);
  const state = groupState(states);
  const failed = states.filter((one) => one === "failed").length;
  const duration = shownDuration(groupDurationMs(calls));
  const noun = groupNoun(calls.map(toolIdOf));
  const bodyId = `${key}:rows`;
  const title = t(`tool.group.${noun}`, { count: calls.length });
  return (
    <section class={`tool-group status-${state}${open ? " open" : ""}`}>
      <button
        type="button"
        class="tool-group-line"
        aria-expanded={open}
        aria-controls={open ? bodyId : undefined}
        onClick={() => toggleDisclosure(key, byDefault)}
      >
        <span class="tool-chevron" aria-hidden="true" />
        <span class="tool-group-title">{title}</span>
        <span class="tool-row-end">
          <StateMark state={state} />
          {failed > 0 && (
            <span class="tool-state tool-failed-count">
              {t("tool.group.failedCount", { count: failed })}
            </span>
          )}
          {state !== "completed" && state !== "failed" && (
            <span class="tool-state">{t(`tool.state.${state}`)}</span>
          )}
          {duration !== null && <span class="tool-duration">{duration}</span>}
        </span>
      </button>
      {open && (
        <div class="tool-group-rows" id={bodyId} role="group" aria-label={title}>
          {calls.map((view) => (
            <ToolRow
              key={toolRowKey(view)}
              view={view}
              runActive={runActive}
              workspaceRoot={root}
            />
          ))}
        </div>
      )}
    </section>
  );
}

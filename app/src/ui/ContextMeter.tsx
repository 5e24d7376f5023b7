import { useEffect } from "preact/hooks";
import { onJournalEvent } from "../state/store.ts";
import {
  compactingThread,
  compactNow,
  compactOutcome,
  contextPercent,
  contextUse,
  loadContextUse,
} from "../state/context_meter.ts";
import { locale, t } from "../i18n/i18n.ts";

/**
 * Beside the composer: how much of the model's window the thread's last step used
 * ("38 % of context", the tokens on hover), and "Compact now" — disabled while a Run is
 * active (the runtime refuses it then) — with what the compaction did.
 */
export function ContextMeter(props: { threadId: string; running: boolean }) {
  const { threadId, running } = props;
  useEffect(() => {
    void loadContextUse(threadId);
    // Each finished model call of the thread may have moved the meter.
    return onJournalEvent((event) => {
      if (event.threadId !== threadId) return;
      if (event.type === "model.response_finished" || event.type === "thread.compacted") {
        void loadContextUse(threadId);
      }
    });
  }, [threadId]);
  const shown = contextUse.value?.threadId === threadId ? contextUse.value.use : null;
  const outcome = compactOutcome.value?.threadId === threadId ? compactOutcome.value : null;
  const busy = compactingThread.value === threadId;
  const number = (n: number) => n.toLocaleString(locale.value);
  return (
    <div class="context-meter">
      {shown && (
        <span
          class="context-use"
          title={t(shown.estimated ? "context.tokensEstimated" : "context.tokens", {
            used: number(shown.inputTokens),
            window: number(shown.contextWindow),
          })}
        >
          <meter min={0} max={100} value={contextPercent(shown)} aria-hidden="true" />
          {t("context.percent", { percent: contextPercent(shown) })}
        </span>
      )}
      <button
        type="button"
        class="compact-now"
        disabled={running || busy}
        title={running ? t("context.compactBusy") : t("context.compactHint")}
        onClick={() => void compactNow(threadId)}
      >
        {busy ? t("context.compacting") : t("context.compact")}
      </button>
      {outcome && (
        <span class="compact-outcome" role="status">
          {outcome.compacted
            ? t("context.compacted", {
              before: number(outcome.tokensBefore),
              after: number(outcome.tokensAfter),
            })
            : t("context.nothing")}
        </span>
      )}
    </div>
  );
}

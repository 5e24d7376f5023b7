import { t } from "../../i18n/i18n.ts";
import { contextUse } from "../../state/context_meter.ts";
import type { RunView } from "../../state/projection.ts";
import { usageLineParts } from "./usage_line.ts";

/** How long a settled Run took, or null when a time is missing. */
function runDurationMs(run: RunView): number | null {
  if (!run.startedAt || !run.settledAt) return null;
  const ms = Date.parse(run.settledAt) - Date.parse(run.startedAt);
  return Number.isNaN(ms) ? null : Math.max(0, ms);
}

/**
 * Under a finished Run's answer, quietly: its tokens in and out, the context its last
 * step used against the model's window, the model and the time it took; the exact
 * figures on hover. Nothing shows while the Run streams (the feed adds the line when it
 * settles).
 */
export function RunUsageLine(props: { run: RunView }) {
  const { run } = props;
  // The meter's reading is the thread's last step: this Run's only when it names it.
  const meter = contextUse.value?.use;
  const reportedContext = meter && meter.runId === run.id
    ? { tokens: meter.inputTokens, window: meter.contextWindow, estimated: meter.estimated }
    : null;
  const parts = usageLineParts({
    usage: run.usage ?? null,
    reportedContext,
    model: run.fallback?.to.modelId ?? run.modelId,
    durationMs: runDurationMs(run),
  });
  if (parts.length === 0) return null;
  return (
    <p class="run-usage" aria-label={t("usage.label")}>
      {parts.map((part) => (
        <span key={part.name} class={`run-usage-${part.name}`} title={part.title}>
          {part.text}
        </span>
      ))}
    </p>
  );
}

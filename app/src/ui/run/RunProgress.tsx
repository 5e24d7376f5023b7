import { useNow } from "../use_now.ts";
import type { RunBudget } from "@daedalus/client";
import type { RunView } from "../../state/projection.ts";
import { formatElapsed, runProgress } from "../../state/run_progress.ts";
import { t } from "../../i18n/i18n.ts";
import { runAwaitsAnswer } from "../../state/approvals.ts";
import { approvals } from "../../state/approval_store.ts";

/**
 * The progress line of the active Run: "Waiting for your approval" while it waits, model
 * calls, elapsed time (updated each second), compactions and steers.
 */
export function RunProgress(props: { run: RunView }) {
  const now = useNow();
  const p = runProgress(props.run, now);
  return (
    <div class="run-progress" role="group" aria-label={t("progress.label")} aria-live="off">
      {props.run.status === "queued" && p.elapsedMs === null
        ? <span>{t("progress.queued")}</span>
        : (
          <>
            {props.run.status === "waiting" && (
              <span class="progress-waiting">
                {t(
                  waitsForClient(props.run)
                    ? "progress.waitingClient"
                    : runAwaitsAnswer(approvals.value, props.run.id)
                    ? "progress.waitingQuestion"
                    : "progress.waiting",
                )}
              </span>
            )}
            <span>{t("progress.modelCalls", { count: p.modelCalls })}</span>
            <span>{t("progress.elapsed", { time: formatElapsed(p.elapsedMs ?? 0) })}</span>
            {p.compactions > 0 && <span>{t("progress.compactions", { count: p.compactions })}
            </span>}
            {p.steers > 0 && <span>{t("progress.steers", { count: p.steers })}</span>}
            {props.run.budget && <BudgetLine budget={props.run.budget} modelCalls={p.modelCalls} />}
          </>
        )}
    </div>
  );
}

/** The Run's limits, as far as the feed knows its spending (model calls counted live). */
function BudgetLine(props: { budget: RunBudget; modelCalls: number }) {
  const { budget } = props;
  const parts: string[] = [];
  if (budget.modelCalls !== undefined) {
    parts.push(
      t("progress.budget.modelCalls", { used: props.modelCalls, limit: budget.modelCalls }),
    );
  }
  if (budget.tokens !== undefined) {
    parts.push(t("progress.budget.tokens", { limit: budget.tokens.toLocaleString() }));
  }
  if (budget.costUsd !== undefined) {
    parts.push(t("progress.budget.cost", { limit: budget.costUsd.toFixed(2) }));
  }
  if (budget.wallTimeSeconds !== undefined) {
    parts.push(t("progress.budget.time", { limit: formatElapsed(budget.wallTimeSeconds * 1000) }));
  }
  return <span class="progress-budget">{t("progress.budget", { limits: parts.join(" · ") })}</span>;
}

/**
 * Whether a waiting Run waits for its caller's tool results (a gateway app's), not the user.
 *
 * @param run the Run
 * @returns true when one of its client-side calls is running
 */
export function waitsForClient(run: Pick<RunView, "items">): boolean {
  return run.items.some((item) =>
    item.kind === "tool_call" && item.status === "running" && item.data.clientTool === true
  );
}

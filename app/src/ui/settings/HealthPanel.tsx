import { t } from "../../i18n/i18n.ts";
import { type BreakerHealthView, loadBreakers } from "../../state/breaker_health.ts";
import { allHealthy, type BreakerRow, breakerRows } from "../../state/breaker_rows.ts";
import { formatElapsed } from "../../state/run_progress.ts";
import { FailureLine } from "./FailureLine.tsx";

/**
 * The section for one state of the view, at a moment (the countdowns count from it).
 *
 * @param props the view and the current time
 */
export function HealthPanel(props: { view: BreakerHealthView; nowMs: number }) {
  const { view } = props;
  const rows = view.breakers === null ? null : breakerRows(view.breakers, props.nowMs);
  return (
    <div class="health-section" aria-busy={view.status === "loading"}>
      <div class="health-heading">
        <h3>{t("settings.section.health")}</h3>
        <button type="button" class="health-refresh" onClick={() => void loadBreakers()}>
          {t("health.refresh")}
        </button>
      </div>
      <p class="muted">{t("health.intro")}</p>
      {view.error && <FailureLine failure={view.error} />}
      {rows === null
        ? view.status !== "failed" && <p class="muted">{t("health.loading")}</p>
        : <BreakerSummary rows={rows} />}
    </div>
  );
}

function BreakerSummary({ rows }: { rows: readonly BreakerRow[] }) {
  const healthy = allHealthy(rows);
  return (
    <>
      <p class={`health-summary ${healthy ? "healthy" : "unhealthy"}`} role="status">
        {t(healthy ? "health.healthy" : "health.unhealthy")}
      </p>
      {rows.length === 0
        ? <p class="muted health-none">{t("health.none")}</p>
        : (
          <table class="health-breakers">
            <caption class="visually-hidden">{t("health.table")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("health.col.name")}</th>
                <th scope="col">{t("health.col.state")}</th>
                <th scope="col">{t("health.col.failures")}</th>
                <th scope="col">{t("health.col.retry")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => <BreakerLine key={row.key} row={row} />)}
            </tbody>
          </table>
        )}
    </>
  );
}

function BreakerLine({ row }: { row: BreakerRow }) {
  return (
    <tr data-breaker={row.key} data-state={row.phase}>
      <th scope="row">
        <span class="muted breaker-kind">{t(`health.kind.${row.subject}`)}</span>{" "}
        <code>{row.name}</code>
      </th>
      <td>
        <span class={`breaker-state state-${row.phase}`}>{t(`health.state.${row.phase}`)}</span>
      </td>
      <td>
        {failureText(row)}
        {row.consecutiveFailures > 1 && (
          <span class="muted">
            {" · "}
            {t("health.consecutive", { count: row.consecutiveFailures })}
          </span>
        )}
      </td>
      <td class="breaker-retry">{retryText(row)}</td>
    </tr>
  );
}

function failureText(row: BreakerRow): string {
  if (row.recentFailures === 0) return t("health.noFailures");
  if (row.recentCalls === 1) return t("health.lastFailed");
  return t("health.failures", { failures: row.recentFailures, calls: row.recentCalls });
}

function retryText(row: BreakerRow): string {
  if (row.retryInSeconds !== null) {
    return t("health.retryIn", { time: formatElapsed(row.retryInSeconds * 1000) });
  }
  return row.phase === "half_open" ? t("health.retryNext") : t("health.retryNone");
}

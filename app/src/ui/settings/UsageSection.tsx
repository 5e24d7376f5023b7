import { useEffect, useState } from "preact/hooks";
import {
  dailySeries,
  localDateKey,
  profileFigures,
  type UsageReport,
} from "../../state/usage_stats.ts";
import { liveCall } from "../../state/rpc_call.ts";
import { type CallFailure, callFailure } from "../../state/call_failure.ts";
import { t } from "../../i18n/i18n.ts";
import { FailureLine } from "./FailureLine.tsx";
import { UsageChart } from "./UsageChart.tsx";
import { formatDay, formatDays, formatDuration, formatTokens } from "./usage_format.ts";
import "./data_sections.css";
import "./profile.css";

/** The chart's windows, in days. */
const RANGES = [7, 30, 90] as const;
type Range = typeof RANGES[number];

/**
 * Settings → Usage: daily tokens over the last 7, 30 or 90 local days as a bar chart
 * (with the same figures as a table), and lifetime tokens, the peak day, the longest
 * run and the current and longest streaks of days with usage — all from `usage.read`,
 * which counts only provider-reported tokens. Loads when mounted.
 */
export function UsageSection() {
  const [report, setReport] = useState<UsageReport | null>(null);
  const [failure, setFailure] = useState<CallFailure | null>(null);
  const [loading, setLoading] = useState(true);
  const [range, setRange] = useState<Range>(30);
  const load = async () => {
    setLoading(true);
    try {
      setReport(await liveCall("usage.read", {}));
      setFailure(null);
    } catch (error) {
      setFailure(callFailure(error));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void load();
  }, []);
  // The viewer's local today, read at each render so a section left open past midnight
  // moves on at its next refresh.
  const today = localDateKey(new Date());
  return (
    <div class="data-section profile-section" aria-busy={loading}>
      <header class="section-header">
        <h3>{t("profile.title")}</h3>
        <button type="button" aria-disabled={loading} onClick={() => loading || void load()}>
          {t("profile.refresh")}
        </button>
      </header>
      <p class="muted">{t("profile.intro")}</p>
      {failure && <FailureLine failure={failure} />}
      {!report && loading && <p class="muted">{t("profile.loading")}</p>}
      {report && <Figures report={report} today={today} />}
      {report && (
        <>
          <div class="usage-range" role="group" aria-label={t("profile.range")}>
            {RANGES.map((days) => (
              <button
                key={days}
                type="button"
                aria-pressed={range === days}
                onClick={() => setRange(days)}
              >
                {t("profile.rangeDays", { days })}
              </button>
            ))}
          </div>
          <UsageView report={report} today={today} days={range} />
        </>
      )}
    </div>
  );
}

function Figures({ report, today }: { report: UsageReport; today: string }) {
  const figures = profileFigures(report, today);
  const rows: [string, string, string, string | null][] = [
    [
      "lifetime",
      t("profile.lifetime"),
      t("profile.tokens", {
        tokens: formatTokens(figures.lifetimeTokens),
      }),
      null,
    ],
    [
      "peak",
      t("profile.peak"),
      figures.peakDay
        ? t("profile.tokens", { tokens: formatTokens(figures.peakDay.tokens) })
        : t("profile.none"),
      figures.peakDay ? formatDay(figures.peakDay.date) : null,
    ],
    ["longest-run", t("profile.longestRun"), formatDuration(figures.longestRunSec), null],
    ["current-streak", t("profile.currentStreak"), formatDays(figures.currentStreakDays), null],
    ["longest-streak", t("profile.longestStreak"), formatDays(figures.longestStreakDays), null],
  ];
  return (
    <dl class="profile-figures" aria-label={t("profile.figures")}>
      {rows.map(([id, label, value, detail]) => (
        <div key={id} class="profile-figure" data-figure={id}>
          <dt>{label}</dt>
          <dd>
            <span class="figure-value">{value}</span>
            {detail && <span class="figure-detail">{detail}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function UsageView({ report, today, days }: { report: UsageReport; today: string; days: number }) {
  const buckets = report.dailyUsageBuckets.map(({ startDate, tokens }) => ({
    date: startDate,
    tokens,
  }));
  const series = dailySeries(buckets, today, days);
  return (
    <figure class="usage-figure">
      <UsageChart series={series} today={today} />
      <details class="usage-table">
        <summary>{t("profile.showTable")}</summary>
        <table>
          <caption>{t("profile.chartTitle", { days })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("profile.date")}</th>
              <th scope="col">{t("profile.dayTokens")}</th>
            </tr>
          </thead>
          <tbody>
            {series.map((day) => (
              <tr key={day.date}>
                <th scope="row">{formatDay(day.date)}</th>
                <td>{formatTokens(day.tokens)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

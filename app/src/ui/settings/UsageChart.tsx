import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { niceCeiling, type UsageDay } from "../../state/usage_stats.ts";
import { t } from "../../i18n/i18n.ts";
import { formatDay, formatShortDay, formatTokens, formatTokensCompact } from "./usage_format.ts";

/**
 * The drawing box in SVG user units. The width follows the container's CSS width (one
 * unit = one pixel) so labels keep their size on a phone and a wide window alike.
 */
const DEFAULT_WIDTH = 640;
const MIN_WIDTH = 240;
const HEIGHT = 200;
const PLOT_LEFT = 48;
const PLOT_TOP = 10;
const PLOT_BOTTOM = 170;

/**
 * Daily tokens as an inline SVG bar chart: one bar per day (gaps drawn as empty days),
 * a round y axis with three gridlines, dates under the first, middle and last bar, and a
 * `<title>` with the exact figure on every day's column. Screen readers get the chart's
 * title and summary; the table beside it lists every day.
 */
export function UsageChart({ series, today }: { series: readonly UsageDay[]; today: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.round(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(Math.max(MIN_WIDTH, measured));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const plotRight = width - 8;
  const max = niceCeiling(Math.max(0, ...series.map((day) => day.tokens)));
  const total = series.reduce((sum, day) => sum + day.tokens, 0);
  const band = (plotRight - PLOT_LEFT) / Math.max(1, series.length);
  const barWidth = Math.max(1, band * 0.72);
  const y = (tokens: number) => PLOT_BOTTOM - (tokens / max) * (PLOT_BOTTOM - PLOT_TOP);
  const labelled = new Set([0, Math.floor((series.length - 1) / 2), series.length - 1]);
  const first = series[0]?.date ?? today;
  return (
    <div ref={box} class="usage-chart-box">
      <svg
        class="usage-chart"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="img"
        aria-labelledby="usage-chart-title usage-chart-desc"
      >
        <title id="usage-chart-title">{t("profile.chartTitle", { days: series.length })}</title>
        <desc id="usage-chart-desc">
          {t("profile.chartDesc", {
            total: formatTokens(total),
            from: formatDay(first),
            to: formatDay(today),
          })}
        </desc>
        {[0, max / 2, max].map((value) => (
          <g key={value} class="usage-grid">
            <line x1={PLOT_LEFT} x2={plotRight} y1={y(value)} y2={y(value)} />
            <text x={PLOT_LEFT - 6} y={y(value) + 4} text-anchor="end">
              {formatTokensCompact(value)}
            </text>
          </g>
        ))}
        {series.map((day, index) => {
          const x = PLOT_LEFT + index * band;
          const height = PLOT_BOTTOM - y(day.tokens);
          return (
            <g key={day.date} class="usage-day">
              <title>
                {t("profile.dayTitle", {
                  date: formatDay(day.date),
                  tokens: formatTokens(day.tokens),
                })}
              </title>
              {/* The whole column answers hover, so empty days show their 0 too. */}
              <rect
                class="usage-hit"
                x={x}
                y={PLOT_TOP}
                width={band}
                height={PLOT_BOTTOM - PLOT_TOP}
              />
              {day.tokens > 0 && (
                <rect
                  class="usage-bar"
                  x={x + (band - barWidth) / 2}
                  y={PLOT_BOTTOM - Math.max(1, height)}
                  width={barWidth}
                  height={Math.max(1, height)}
                  rx={Math.min(2, barWidth / 4)}
                />
              )}
              {labelled.has(index) && (
                <text
                  class="usage-x-label"
                  x={x + band / 2}
                  y={HEIGHT - 8}
                  text-anchor={index === 0
                    ? "start"
                    : index === series.length - 1
                    ? "end"
                    : "middle"}
                >
                  {formatShortDay(day.date)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </div>
  );
}

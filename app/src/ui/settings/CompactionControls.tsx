import type { AuxiliarySettingsView } from "../../state/auxiliary_settings.ts";
import { auxiliarySettingsView, setCompaction } from "../../state/auxiliary_settings.ts";
import { t } from "../../i18n/i18n.ts";

/** The thresholds offered, in percent of the window (the runtime accepts 50–95). */
const THRESHOLDS = [50, 60, 70, 75, 80, 85, 90, 95] as const;

/**
 * Settings › General › Context: whether Runs compact their context and at which share of
 * the window (`settings.update`'s `compaction`). The settings load with the switches
 * above it (AuxiliarySwitches.tsx).
 */
export function CompactionControls() {
  return <CompactionControlList view={auxiliarySettingsView.value} />;
}

/**
 * The controls for one state of the view (hook-free, so tests render it directly).
 *
 * @param props the view to show
 * @returns the heading, the switch and the threshold once the settings are known
 */
export function CompactionControlList({ view }: { view: AuxiliarySettingsView }) {
  const compaction = view.settings?.compaction;
  if (!compaction) return null;
  const pending = view.pending.has("compaction");
  const percent = Math.round(compaction.threshold * 100);
  const offered = THRESHOLDS.includes(percent as (typeof THRESHOLDS)[number])
    ? THRESHOLDS
    : [...THRESHOLDS, percent].sort((a, b) => a - b);
  return (
    <div class="data-section compaction-controls">
      <h4>{t("settings.general.compaction")}</h4>
      <p class="muted" id="compaction-hint">{t("settings.general.compactionIntro")}</p>
      <ul class="skill-list">
        <li class="skill-row">
          <div class="skill-text">
            <span class="skill-name">{t("settings.general.compactionEnabled")}</span>
            <p class="muted">
              {compaction.enabled
                ? t("settings.general.compactionOnHint")
                : t("settings.general.compactionOffHint")}
            </p>
          </div>
          <button
            type="button"
            role="switch"
            class="switch compaction-switch"
            aria-checked={compaction.enabled}
            aria-label={t("settings.general.compactionEnabled")}
            aria-describedby="compaction-hint"
            aria-disabled={pending}
            onClick={() => pending || void setCompaction({ enabled: !compaction.enabled })}
          >
            <span class="switch-track" aria-hidden="true">
              <span class="switch-thumb" />
            </span>
            <span class="switch-text">
              {compaction.enabled ? t("settings.general.on") : t("settings.general.off")}
            </span>
          </button>
        </li>
        <li class="skill-row">
          <label class="skill-text" for="compaction-threshold">
            <span class="skill-name">{t("settings.general.compactionThreshold")}</span>
          </label>
          <select
            id="compaction-threshold"
            class="compaction-threshold"
            value={String(percent)}
            disabled={pending || !compaction.enabled}
            onChange={(event) =>
              void setCompaction({ threshold: Number(event.currentTarget.value) / 100 })}
          >
            {offered.map((value) => (
              <option key={value} value={String(value)}>
                {t("settings.general.compactionPercent", { percent: value })}
              </option>
            ))}
          </select>
        </li>
      </ul>
    </div>
  );
}

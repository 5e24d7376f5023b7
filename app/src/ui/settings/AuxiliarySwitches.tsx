import { useEffect } from "preact/hooks";
import type { Settings } from "@daedalus/client";
import {
  type AuxiliarySettingsView,
  auxiliarySettingsView,
  type AuxiliarySwitch,
  loadAuxiliarySettings,
  setAuxiliarySwitch,
  switchIsOn,
} from "../../state/auxiliary_settings.ts";
import { t } from "../../i18n/i18n.ts";
import { FailureLine } from "./FailureLine.tsx";

/** Each switch: its label, its hint, and the variable that forces it off. */
const SWITCHES: readonly {
  name: AuxiliarySwitch;
  label: "settings.general.threadTitles" | "settings.general.memoryRefinement";
  hint: "settings.general.threadTitlesHint" | "settings.general.memoryRefinementHint";
  variable: string;
}[] = [
  {
    name: "threadTitles",
    label: "settings.general.threadTitles",
    hint: "settings.general.threadTitlesHint",
    variable: "DAEDALUS_THREAD_TITLES",
  },
  {
    name: "memoryRefinement",
    label: "settings.general.memoryRefinement",
    hint: "settings.general.memoryRefinementHint",
    variable: "DAEDALUS_MEMORY_REFINEMENT",
  },
];

/**
 * Settings › General › After each message: a switch for automatic thread titles and one
 * for memory refinement (`settings.update`; the runtime applies it to its next call).
 * Loads when mounted. Its styles (the shared switch) come with GeneralSection.tsx, so this
 * file stays importable by the unit tests.
 */
export function AuxiliarySwitches() {
  useEffect(() => {
    void loadAuxiliarySettings();
  }, []);
  return <AuxiliarySwitchList view={auxiliarySettingsView.value} />;
}

/**
 * The switches for one state of the view (hook-free, so tests render it directly).
 *
 * @param props the view to show
 * @returns the heading, the intro, and a switch per call once the settings are known
 */
export function AuxiliarySwitchList({ view }: { view: AuxiliarySettingsView }) {
  const { settings } = view;
  return (
    <div class="data-section auxiliary-switches" aria-busy={view.status === "loading"}>
      <h4>{t("settings.general.auxiliary")}</h4>
      <p class="muted">{t("settings.general.auxiliaryIntro")}</p>
      {view.error && <FailureLine failure={view.error} />}
      {settings === null
        ? view.status !== "failed" && <p class="muted">{t("settings.general.auxiliaryLoading")}</p>
        : (
          <ul class="skill-list">
            {SWITCHES.map((entry) => (
              <SwitchRow
                key={entry.name}
                entry={entry}
                settings={settings}
                pending={view.pending.has(entry.name)}
              />
            ))}
          </ul>
        )}
    </div>
  );
}

function SwitchRow(
  { entry, settings, pending }: {
    entry: (typeof SWITCHES)[number];
    settings: Settings;
    pending: boolean;
  },
) {
  const forced = settings.forcedOff[entry.name];
  const on = switchIsOn(settings, entry.name);
  const hintId = `auxiliary-hint-${entry.name}`;
  return (
    <li class="skill-row">
      <div class="skill-text">
        <span class="skill-name">{t(entry.label)}</span>
        <p class="muted" id={hintId}>
          {forced ? t("settings.general.forcedOff", { variable: entry.variable }) : t(entry.hint)}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        class="switch"
        aria-checked={on}
        aria-label={t(entry.label)}
        aria-describedby={hintId}
        aria-disabled={pending || forced}
        onClick={() => pending || forced || void setAuxiliarySwitch(entry.name, !on)}
      >
        <span class="switch-track" aria-hidden="true">
          <span class="switch-thumb" />
        </span>
        <span class="switch-text">
          {on ? t("settings.general.on") : t("settings.general.off")}
        </span>
      </button>
    </li>
  );
}

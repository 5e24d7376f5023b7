import type { ReasoningEffort } from "@daedalus/client";
import { type MessageKey, t } from "../../i18n/i18n.ts";
import {
  effortChoices,
  type EffortDraft,
  type FieldProblem,
  REASONING_EFFORT_LEVELS,
  toggleEffortLevel,
} from "../../state/provider_form.ts";
import "./effort_levels.css";

/** Each level's name (the wire value is what the model receives). */
const EFFORT_LABELS: Record<ReasoningEffort, MessageKey> = {
  none: "settings.effort.none",
  minimal: "settings.effort.minimal",
  low: "settings.effort.low",
  medium: "settings.effort.medium",
  high: "settings.effort.high",
  xhigh: "settings.effort.xhigh",
  max: "settings.effort.max",
  ultra: "settings.effort.ultra",
};

/**
 * The reasoning-effort levels a model accepts (checkboxes) and its default (a select with
 * Auto), used by Settings' model limits and onboarding's Advanced part.
 *
 * @param props.idBase prefix for the select's id
 * @param props.value the levels ticked and the default
 * @param props.emptyOffersAll whether no level ticked means "any" (see `effortChoices`)
 * @param props.problem the default's problem, shown under it
 * @param props.onChange gets the new levels and default
 */
export function EffortLevelsPicker(props: {
  idBase: string;
  value: EffortDraft;
  emptyOffersAll: boolean;
  problem?: FieldProblem<string>;
  onChange: (value: EffortDraft) => void;
}) {
  const { value, emptyOffersAll, problem } = props;
  const selectId = `${props.idBase}-default`;
  return (
    <>
      <fieldset class="effort-levels">
        <legend>{t("settings.limits.levels")}</legend>
        {REASONING_EFFORT_LEVELS.map((level) => (
          <label key={level}>
            <input
              type="checkbox"
              checked={value.reasoningEfforts.includes(level)}
              onChange={(event) =>
                props.onChange(
                  toggleEffortLevel(value, level, event.currentTarget.checked, emptyOffersAll),
                )}
            />
            {t(EFFORT_LABELS[level])}
          </label>
        ))}
      </fieldset>
      <div class="effort-default">
        <label for={selectId}>{t("settings.limits.default")}</label>
        <select
          id={selectId}
          value={value.reasoningEffort}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${selectId}-problem` : undefined}
          onChange={(event) =>
            props.onChange({
              ...value,
              reasoningEffort: event.currentTarget.value as ReasoningEffort | "",
            })}
        >
          <option value="">{t("settings.limits.auto")}</option>
          {effortChoices(value.reasoningEfforts, emptyOffersAll).map((level) => (
            <option key={level} value={level}>{t(EFFORT_LABELS[level])}</option>
          ))}
        </select>
        {problem && (
          <small id={`${selectId}-problem`} class="effort-problem">
            {t(problem.key, problem.vars)}
          </small>
        )}
      </div>
    </>
  );
}

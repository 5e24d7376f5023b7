import { useSignal } from "@preact/signals";
import type { Model } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";
import type { CallFailure } from "../../state/call_failure.ts";
import { allModels, setModelFallback } from "../../state/providers.ts";
import {
  type FallbackChoice,
  fallbackChoices,
  fallbackRef,
  fallbackValue,
} from "../../state/fallback_choices.ts";
import { FailureLine } from "./FailureLine.tsx";

function choiceLabel(choice: FallbackChoice): string {
  if (choice.model === null) return t("settings.models.fallbackNone");
  const name = `${choice.model.displayName} (${choice.model.providerId}/${choice.model.id})`;
  return choice.model.enabled ? name : t("settings.models.fallbackDisabled", { name });
}

/**
 * A model's fallback: none, or another enabled model, sent as `model.set_fallback` on
 * change. While the runtime saves, the picker shows the choice and waits; a refusal
 * (`model_fallback_invalid`) is explained beside it and the picker shows config.yaml's
 * fallback again.
 */
export function FallbackPicker({ model }: { model: Model }) {
  // The choice asked for while the runtime saves it.
  const wanted = useSignal<string | null>(null);
  const failure = useSignal<CallFailure | null>(null);
  const id = `fallback-${model.providerId}-${model.id}`;
  const shown = wanted.value ?? fallbackValue(model.fallback);
  const choose = async (value: string) => {
    wanted.value = value;
    failure.value = await setModelFallback(model, fallbackRef(value));
    wanted.value = null;
  };
  return (
    <div class="model-fallback">
      <label for={id}>{t("settings.models.fallback")}</label>
      <select
        id={id}
        name="fallback"
        disabled={wanted.value !== null}
        aria-label={t("settings.models.fallbackOf", { name: model.displayName })}
        aria-describedby={`${id}-hint`}
        onChange={(event) => void choose(event.currentTarget.value)}
      >
        {fallbackChoices(model, allModels.value).map((choice) => (
          // `selected` per option, not `value` on the select: when the asked-for option
          // disappears (a refused choice, the list read again) the select's value is
          // already "", so a `value` of "" would not be written and nothing would show.
          <option key={choice.value} value={choice.value} selected={choice.value === shown}>
            {choiceLabel(choice)}
          </option>
        ))}
      </select>
      <small id={`${id}-hint`} class="visually-hidden">{t("settings.models.fallbackHint")}</small>
      {failure.value && <FailureLine failure={failure.value} />}
    </div>
  );
}

import { closeOnEscape } from "../escape_keys.ts";
import { useSignal } from "@preact/signals";
import type { Model } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";
import { setModelEnabled, setModelLimits } from "../../state/providers.ts";
import { FallbackPicker } from "./FallbackPicker.tsx";
import { type FieldProblem, type LimitsDraft, limitsParams } from "../../state/provider_form.ts";
import { sendChecked } from "./send_checked.ts";
import { EffortLevelsPicker } from "../providers/EffortLevelsPicker.tsx";

/** One model: its name, an enable switch, its fallback, and its limits behind "Limits". */
export function ModelRow({ model }: { model: Model }) {
  const editing = useSignal(false);
  // The state asked for while the runtime saves it: the switch shows it at once and
  // falls back to the saved state if the change is refused.
  const wanted = useSignal<boolean | null>(null);
  const failure = useSignal<string | null>(null);
  const toggle = async (enabled: boolean) => {
    wanted.value = enabled;
    failure.value = await setModelEnabled(model, enabled);
    wanted.value = null;
  };
  const switchId = `model-${model.providerId}-${model.id}-enabled`;
  return (
    <li class="model-row" data-model={model.id}>
      <div class="model-line">
        <span class="model-name">
          {model.displayName} <code>{model.id}</code>
        </span>
        <span class="muted model-window">
          {t("settings.models.window", { tokens: model.contextWindow.toLocaleString() })}
        </span>
        <label class="model-switch" for={switchId}>
          <input
            id={switchId}
            type="checkbox"
            role="switch"
            checked={wanted.value ?? model.enabled}
            disabled={wanted.value !== null}
            aria-label={t("settings.models.enable", { name: model.displayName })}
            onChange={(event) => void toggle(event.currentTarget.checked)}
          />
          <span aria-hidden="true">{t("settings.models.enabled")}</span>
        </label>
        <button
          type="button"
          aria-expanded={editing.value}
          onClick={() => (editing.value = !editing.value)}
        >
          {t("settings.models.limits")}
        </button>
      </div>
      {failure.value && <p class="settings-error" role="alert">{failure.value}</p>}
      <FallbackPicker model={model} />
      {editing.value && <LimitsForm model={model} onDone={() => (editing.value = false)} />}
    </li>
  );
}

/** A model's context window, the effort levels it accepts and its default effort. */
function LimitsForm({ model, onDone }: { model: Model; onDone: () => void }) {
  const draft = useSignal<LimitsDraft>({
    contextWindow: String(model.contextWindow),
    reasoningEfforts: model.reasoningEfforts,
    reasoningEffort: model.reasoningEffort ?? "",
  });
  const problems = useSignal<FieldProblem<keyof LimitsDraft>[]>([]);
  const failure = useSignal<string | null>(null);
  const busy = useSignal(false);
  const base = `limits-${model.providerId}-${model.id}`;
  const problemOf = (field: keyof LimitsDraft) =>
    problems.value.find((problem) => problem.field === field);
  const save = async (event: Event) => {
    event.preventDefault();
    const checked = limitsParams(model.providerId, model.id, draft.value);
    if (await sendChecked({ problems, failure, busy }, checked, setModelLimits)) onDone();
  };
  const windowProblem = problemOf("contextWindow");
  const effortProblem = problemOf("reasoningEffort");
  return (
    <form
      class="limits-form"
      aria-label={t("settings.models.limitsOf", { name: model.displayName })}
      onSubmit={save}
      onKeyDown={closeOnEscape(onDone)}
      noValidate
    >
      <div class="settings-field">
        <label for={`${base}-window`}>{t("settings.limits.contextWindow")}</label>
        <input
          id={`${base}-window`}
          inputMode="numeric"
          value={draft.value.contextWindow}
          aria-invalid={windowProblem ? true : undefined}
          aria-describedby={windowProblem ? `${base}-window-problem` : undefined}
          onInput={(
            event,
          ) => (draft.value = { ...draft.value, contextWindow: event.currentTarget.value })}
        />
        {windowProblem && (
          <small id={`${base}-window-problem`} class="settings-problem">
            {t(windowProblem.key, windowProblem.vars)}
          </small>
        )}
      </div>
      <EffortLevelsPicker
        idBase={base}
        value={draft.value}
        emptyOffersAll={false}
        problem={effortProblem}
        onChange={(efforts) => (draft.value = { ...draft.value, ...efforts })}
      />
      {failure.value && <p class="settings-error" role="alert">{failure.value}</p>}
      <div class="settings-buttons">
        <button type="submit" class="primary" disabled={busy.value}>{t("settings.save")}</button>
        <button type="button" onClick={onDone}>{t("settings.cancel")}</button>
      </div>
    </form>
  );
}

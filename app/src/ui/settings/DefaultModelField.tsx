import { useEffect } from "preact/hooks";
import {
  defaultModelView,
  loadDefaultModel,
  modelKey,
  modelLabel,
  modelOfChoice,
  saveDefaultModel,
} from "../../state/default_model.ts";
import { models } from "../../state/store.ts";
import { t } from "../../i18n/i18n.ts";
import { FailureLine } from "./FailureLine.tsx";

/**
 * Settings › Agents › Default model: the model of Runs whose turn and agent name none
 * (`settings.update` `defaultModel`), picked from the enabled models. The select shows
 * the runtime's answer: a refused pick goes back to the saved model, with the reason.
 */
export function DefaultModelField() {
  useEffect(() => {
    void loadDefaultModel();
  }, []);
  const view = defaultModelView.value;
  const saved = modelKey(view.model);
  // A saved model that is no longer enabled stays visible (and can be replaced).
  const stale = view.model !== null &&
    !models.value.some((m) => `${m.providerId}/${m.id}` === saved);
  return (
    <div class="default-model" aria-busy={view.status === "loading" || view.pending}>
      <label class="settings-field">
        <span>{t("agents.defaultModel")}</span>
        <select
          name="default-model"
          value={saved ?? ""}
          aria-describedby="default-model-hint"
          onChange={(event) => void saveDefaultModel(modelOfChoice(event.currentTarget.value))}
        >
          <option value="">{t("agents.defaultModelNone")}</option>
          {stale && view.model && (
            <option value={saved ?? ""}>{modelLabel(models.value, view.model)}</option>
          )}
          {models.value.map((m) => (
            <option key={`${m.providerId}/${m.id}`} value={`${m.providerId}/${m.id}`}>
              {m.displayName}
            </option>
          ))}
        </select>
        <span id="default-model-hint" class="muted">
          {stale ? t("agents.defaultModelStale") : t("agents.defaultModelHint")}
        </span>
      </label>
      {view.error && <FailureLine failure={view.error} />}
    </div>
  );
}

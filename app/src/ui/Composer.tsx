import { useSignal } from "@preact/signals";
import { activeRun, conversation, models, selectedModel, send, stop } from "../state/store.ts";
import { t } from "../i18n/i18n.ts";

/** The message box: model picker, Send, and Stop while a Run is active. */
export function Composer() {
  const draft = useSignal("");
  if (!conversation.value) return null;
  const running = activeRun.value !== null;
  const available = models.value;
  const submit = async (event: Event) => {
    event.preventDefault();
    if (running) return;
    if (await send(draft.value)) draft.value = "";
  };
  return (
    <form class="composer" onSubmit={submit}>
      <textarea
        aria-label={t("composer.label")}
        placeholder={t("composer.placeholder")}
        value={draft.value}
        onInput={(event) => (draft.value = event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
            void submit(event);
          }
        }}
      />
      <div class="composer-actions">
        <label>
          <span class="visually-hidden">{t("composer.model")}</span>
          <select
            value={selectedModel.value ?? ""}
            disabled={available.length === 0}
            onChange={(event) => (selectedModel.value = event.currentTarget.value)}
          >
            {available.length === 0 && <option value="">{t("composer.noModel")}</option>}
            {available.map((model) => (
              <option
                key={`${model.providerId}/${model.id}`}
                value={`${model.providerId}/${model.id}`}
              >
                {model.displayName}
              </option>
            ))}
          </select>
        </label>
        {running
          ? <button type="button" onClick={() => void stop()}>{t("composer.stop")}</button>
          : (
            <button type="submit" disabled={!selectedModel.value || draft.value.trim() === ""}>
              {t("composer.send")}
            </button>
          )}
      </div>
    </form>
  );
}

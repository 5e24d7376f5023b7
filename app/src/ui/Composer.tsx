import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import {
  activeRun,
  conversation,
  models,
  selectedModel,
  send,
  steer,
  stop,
  threads,
} from "../state/store.ts";
import { drafts } from "../state/drafts.ts";
import { openSettings } from "../state/settings_nav.ts";
import { t } from "../i18n/i18n.ts";

/**
 * The message box: model picker, Send, and while a Run is active Steer (the text joins
 * the running Run) and Stop. Each thread keeps its own draft across reloads. With no
 * usable model, Send opens Settings at Providers and models and keeps the draft.
 */
export function Composer() {
  const draft = useSignal("");
  const threadId = conversation.value?.threadId ?? null;
  useEffect(() => {
    draft.value = threadId ? drafts.get(threadId) : "";
  }, [threadId]);
  if (!threadId) return null;
  const running = activeRun.value !== null;
  const available = models.value;
  const empty = draft.value.trim() === "";
  const edit = (text: string) => {
    draft.value = text;
    drafts.set(threadId, text);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    if (empty) return;
    // Nothing to send with: set one up first. The draft stays (it is saved per thread).
    // Until the first `model.list` arrives (with the thread list) an empty list means
    // "not known yet", not "none".
    if (!running && available.length === 0) {
      if (threads.value.snapshotSeq !== null) openSettings("providers");
      return;
    }
    const text = draft.value;
    const accepted = running ? await steer(text) : await send(text);
    // Only clear what was sent: the user may have typed more while the call was in flight.
    if (accepted && draft.value === text) {
      draft.value = "";
      drafts.clear(threadId);
    }
  };
  return (
    <form class="composer" onSubmit={submit}>
      <textarea
        aria-label={t("composer.label")}
        placeholder={t(running ? "composer.steerPlaceholder" : "composer.placeholder")}
        value={draft.value}
        onInput={(event) => edit(event.currentTarget.value)}
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
            disabled={available.length === 0 || running}
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
        {running && <button type="button" onClick={() => void stop()}>{t("composer.stop")}</button>}
        <button
          type="submit"
          disabled={empty || (!running && available.length > 0 && !selectedModel.value)}
        >
          {t(running ? "composer.steer" : "composer.send")}
        </button>
      </div>
    </form>
  );
}

import { useState } from "preact/hooks";
import type { ReasoningEffort } from "@daedalus/client";
import { type MessageKey, t } from "../../i18n/i18n.ts";
import { connectProvider, discoverModelIds } from "../../state/onboarding.ts";
import type { ConnectedProvider } from "../../state/onboarding_flow.ts";
import {
  CONTEXT_WINDOW_MAX,
  CONTEXT_WINDOW_MIN,
  EFFORT_LEVELS,
  emptyProviderForm,
  mergeModelIds,
  type ProviderForm,
} from "../../state/onboarding_provider_form.ts";

type Feedback = { problem: string } | { message: string } | null;

function feedbackText(feedback: Feedback): string | null {
  if (!feedback) return null;
  if ("problem" in feedback) return t(`provider.problem.${feedback.problem}` as MessageKey);
  return t("provider.failed", { message: feedback.message });
}

/**
 * Step 2: DeepSeek (an API key) or a custom OpenAI-compatible provider, with optional
 * model discovery and an Advanced part for the context window and reasoning effort.
 * A refusal is shown beside the form, which keeps everything typed.
 */
export function ProviderStep(props: {
  connected: ConnectedProvider | null;
  onConnected: (provider: ConnectedProvider) => void;
  onBack: () => void;
  onNext: () => void;
  onSkip: () => void;
}) {
  const [form, setForm] = useState<ProviderForm>(() => emptyProviderForm("deepseek"));
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [found, setFound] = useState<number | null>(null);
  // Functional updates: a discovery that returns while the user types must not undo it.
  const change = (fields: Partial<ProviderForm>) =>
    setForm((previous) => ({ ...previous, ...fields }));
  const connect = async () => {
    setBusy(true);
    setFeedback(null);
    const outcome = await connectProvider(form);
    setBusy(false);
    if (outcome.ok) props.onConnected(outcome.provider);
    else setFeedback(outcome);
  };
  const discover = async () => {
    setBusy(true);
    setFeedback(null);
    const outcome = await discoverModelIds(form);
    setBusy(false);
    if (!outcome.ok) return setFeedback(outcome);
    setFound(outcome.ids.length);
    setForm((previous) => ({
      ...previous,
      modelIds: mergeModelIds(previous.modelIds, outcome.ids),
    }));
  };
  const toggleEffort = (level: ReasoningEffort, on: boolean) =>
    change({
      efforts: EFFORT_LEVELS.filter((l) => l === level ? on : form.efforts.includes(l)),
    });
  const problem = feedbackText(feedback);
  const custom = form.kind === "custom";
  return (
    <form
      class="onboarding-form"
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        void connect();
      }}
    >
      {props.connected && (
        <p class="onboarding-connected" role="status">
          {t("provider.connected", {
            name: props.connected.displayName,
            count: props.connected.modelIds.length,
          })}
        </p>
      )}
      <fieldset>
        <legend>{t("provider.kind")}</legend>
        {(["deepseek", "custom"] as const).map((kind) => (
          <label key={kind}>
            <input
              type="radio"
              name="provider-kind"
              value={kind}
              checked={form.kind === kind}
              onChange={() => change({ kind })}
            />
            {t(`provider.kind.${kind}` as MessageKey)}
          </label>
        ))}
      </fieldset>
      {custom && (
        <>
          <label for="provider-name">{t("provider.displayName")}</label>
          <input
            id="provider-name"
            type="text"
            required
            value={form.displayName}
            onInput={(event) => change({ displayName: event.currentTarget.value })}
          />
          <label for="provider-base-url">{t("provider.baseUrl")}</label>
          <input
            id="provider-base-url"
            type="url"
            required
            placeholder="https://example.com/v1"
            value={form.baseUrl}
            onInput={(event) => change({ baseUrl: event.currentTarget.value })}
          />
        </>
      )}
      <label for="provider-api-key">
        {t(custom ? "provider.apiKeyOptional" : "provider.apiKey")}
      </label>
      <input
        id="provider-api-key"
        type="password"
        autocomplete="off"
        required={!custom}
        value={form.apiKey}
        onInput={(event) => change({ apiKey: event.currentTarget.value })}
      />
      <label for="provider-models">
        {t(custom ? "provider.models" : "provider.modelsOptional")}
      </label>
      <textarea
        id="provider-models"
        rows={3}
        aria-describedby="provider-models-hint"
        value={form.modelIds}
        onInput={(event) => change({ modelIds: event.currentTarget.value })}
      />
      <p id="provider-models-hint" class="muted">
        {found === null ? t("provider.modelsHint") : t("provider.discovered", { count: found })}
      </p>
      <div>
        <button type="button" disabled={busy} onClick={() => void discover()}>
          {t("provider.discover")}
        </button>
      </div>
      <details class="onboarding-advanced">
        <summary>{t("provider.advanced")}</summary>
        <p class="muted">{t("provider.advancedHint")}</p>
        <label for="provider-context-window">{t("provider.contextWindow")}</label>
        <input
          id="provider-context-window"
          type="number"
          inputMode="numeric"
          min={CONTEXT_WINDOW_MIN}
          max={CONTEXT_WINDOW_MAX}
          step={1}
          placeholder={t("provider.contextWindowDefault")}
          value={form.contextWindow}
          onInput={(event) => change({ contextWindow: event.currentTarget.value })}
        />
        <fieldset>
          <legend>{t("provider.efforts")}</legend>
          {EFFORT_LEVELS.map((level) => (
            <label key={level}>
              <input
                type="checkbox"
                checked={form.efforts.includes(level)}
                onChange={(event) => toggleEffort(level, event.currentTarget.checked)}
              />
              {level}
            </label>
          ))}
        </fieldset>
        <label for="provider-default-effort">{t("provider.defaultEffort")}</label>
        <select
          id="provider-default-effort"
          value={form.defaultEffort}
          onChange={(event) =>
            change({ defaultEffort: event.currentTarget.value as ReasoningEffort | "" })}
        >
          <option value="">{t("provider.effortAuto")}</option>
          {(form.efforts.length > 0 ? form.efforts : EFFORT_LEVELS).map((level) => (
            <option key={level} value={level}>{level}</option>
          ))}
        </select>
      </details>
      {problem && <p class="onboarding-problem" role="alert">{problem}</p>}
      <footer class="onboarding-actions">
        <button type="button" onClick={props.onBack}>{t("onboarding.back")}</button>
        <button type="button" onClick={props.onSkip}>{t("onboarding.skipStep")}</button>
        {props.connected && (
          <button type="button" onClick={props.onNext}>{t("onboarding.next")}</button>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {t(busy ? "provider.connecting" : "provider.connect")}
        </button>
      </footer>
    </form>
  );
}

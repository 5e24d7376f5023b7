import { useState } from "preact/hooks";
import type { DiscoveredModel } from "@daedalus/client";
import { type MessageKey, t } from "../../i18n/i18n.ts";
import {
  connectProvider,
  type ConnectRefusal,
  discoverConnectModels,
} from "../../state/onboarding.ts";
import type { ConnectedProvider } from "../../state/onboarding_flow.ts";
import {
  addModelIds,
  type ConnectDraft,
  CONTEXT_WINDOW_MAX,
  CONTEXT_WINDOW_MIN,
  emptyConnectDraft,
} from "../../state/provider_form.ts";
import { EffortLevelsPicker } from "../providers/EffortLevelsPicker.tsx";

type Field = keyof ConnectDraft;

function feedbackText(feedback: ConnectRefusal | null): string | null {
  if (!feedback) return null;
  if ("problems" in feedback) {
    return feedback.problems.map((problem) => t(problem.key, problem.vars)).join(" ");
  }
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
  const [form, setForm] = useState<ConnectDraft>(() => emptyConnectDraft("deepseek"));
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<ConnectRefusal | null>(null);
  const [found, setFound] = useState<number | null>(null);
  const [discovered, setDiscovered] = useState<Record<string, DiscoveredModel>>({});
  // Functional updates: a discovery that returns while the user types must not undo it.
  const change = (fields: Partial<ConnectDraft>) =>
    setForm((previous) => ({ ...previous, ...fields }));
  const connect = async () => {
    setBusy(true);
    setFeedback(null);
    const outcome = await connectProvider(form, discovered);
    setBusy(false);
    if (outcome.ok) props.onConnected(outcome.provider);
    else setFeedback(outcome);
  };
  const discover = async () => {
    setBusy(true);
    setFeedback(null);
    const outcome = await discoverConnectModels(form);
    setBusy(false);
    if (!outcome.ok) return setFeedback(outcome);
    setFound(outcome.models.length);
    setDiscovered((previous) => ({
      ...previous,
      ...Object.fromEntries(outcome.models.map((model) => [model.id, model])),
    }));
    setForm((previous) => ({
      ...previous,
      models: addModelIds(previous.models, outcome.models.map((model) => model.id)),
    }));
  };
  const problem = feedbackText(feedback);
  const invalid = (field: Field) =>
    feedback && "problems" in feedback && feedback.problems.some((p) => p.field === field)
      ? true
      : undefined;
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
            aria-invalid={invalid("displayName")}
            value={form.displayName}
            onInput={(event) => change({ displayName: event.currentTarget.value })}
          />
          <label for="provider-base-url">{t("provider.baseUrl")}</label>
          <input
            id="provider-base-url"
            type="url"
            required
            placeholder="https://example.com/v1"
            aria-invalid={invalid("baseUrl")}
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
        aria-invalid={invalid("apiKey")}
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
        aria-invalid={invalid("models")}
        value={form.models}
        onInput={(event) => change({ models: event.currentTarget.value })}
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
          aria-invalid={invalid("contextWindow")}
          value={form.contextWindow}
          onInput={(event) => change({ contextWindow: event.currentTarget.value })}
        />
        <EffortLevelsPicker
          idBase="provider-effort"
          value={form}
          emptyOffersAll
          onChange={change}
        />
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

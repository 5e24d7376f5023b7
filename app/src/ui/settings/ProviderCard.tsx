import { useSignal } from "@preact/signals";
import type { DiscoveredModel, Provider } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";
import {
  configureProvider,
  disconnectProvider,
  discoverModels,
  modelsOf,
  removeProvider,
} from "../../state/providers.ts";
import { deepseekDiscoverParams } from "../../state/provider_form.ts";
import { CustomProviderForm } from "./CustomProviderForm.tsx";
import { DiscoverPicker } from "./DiscoverPicker.tsx";
import { ModelRow } from "./ModelRow.tsx";

/** One provider: its state, its actions and its models. */
export function ProviderCard({ provider }: { provider: Provider }) {
  const editing = useSignal(false);
  const builtin = provider.origin === "builtin";
  const headingId = `provider-${provider.id}`;
  if (editing.value) {
    return (
      <CustomProviderForm
        provider={provider}
        title={t("settings.custom.editTitle", { name: provider.displayName })}
        onDone={() => (editing.value = false)}
      />
    );
  }
  const modelList = modelsOf(provider.id);
  return (
    <section class="provider-card" aria-labelledby={headingId} data-provider={provider.id}>
      <header>
        <h4 id={headingId}>{provider.displayName}</h4>
        <span class="provider-state">{stateLabel(provider)}</span>
      </header>
      {provider.baseUrl && <p class="muted provider-url">{provider.baseUrl}</p>}
      {builtin
        ? <DeepSeekActions provider={provider} />
        : <CustomActions provider={provider} onEdit={() => (editing.value = true)} />}
      {modelList.length > 0 && (
        <ul
          class="model-list"
          aria-label={t("settings.models.label", { name: provider.displayName })}
        >
          {modelList.map((model) => <ModelRow key={model.id} model={model} />)}
        </ul>
      )}
    </section>
  );
}

function stateLabel(provider: Provider): string {
  if (!provider.configured) return t("settings.providers.notConfigured");
  const key = provider.credentialConfigured
    ? "settings.providers.keySaved"
    : "settings.providers.noKey";
  const health = provider.health === "error" ? ` · ${t("settings.providers.unhealthy")}` : "";
  return `${t(key)}${health}`;
}

/** DeepSeek: save an API key (never shown again), discover its models, disconnect. */
function DeepSeekActions({ provider }: { provider: Provider }) {
  const apiKey = useSignal("");
  const busy = useSignal(false);
  const problem = useSignal<string | null>(null);
  const found = useSignal<DiscoveredModel[] | null>(null);
  const run = async (work: () => Promise<string | null>) => {
    busy.value = true;
    problem.value = await work();
    busy.value = false;
  };
  const save = (event: Event) => {
    event.preventDefault();
    if (apiKey.value === "") return;
    void run(async () => {
      const outcome = await configureProvider({ kind: "deepseek", apiKey: apiKey.value });
      // The key leaves the page's state once saved; on error the user may correct it.
      if (outcome === null) apiKey.value = "";
      return outcome;
    });
  };
  const discover = () =>
    void run(async () => {
      const result = await discoverModels(deepseekDiscoverParams(apiKey.value));
      if (typeof result === "string") return result;
      found.value = result;
      return null;
    });
  const addPicked = (picked: DiscoveredModel[]) =>
    void run(async () => {
      const kept = modelsOf(provider.id).map((model) => ({ id: model.id }));
      const added = picked
        .filter((model) => !kept.some((existing) => existing.id === model.id))
        .map(({ id, displayName, contextWindow }) => ({ id, displayName, contextWindow }));
      const outcome = await configureProvider({ kind: "deepseek", models: [...kept, ...added] });
      if (outcome === null) found.value = null;
      return outcome;
    });
  const inputId = `deepseek-key-${provider.id}`;
  return (
    <div class="provider-actions">
      <form class="settings-inline" onSubmit={save}>
        <label for={inputId}>{t("settings.deepseek.apiKey")}</label>
        <input
          id={inputId}
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={apiKey.value}
          placeholder={provider.credentialConfigured
            ? t("settings.deepseek.keyKept")
            : t("settings.deepseek.keyPlaceholder")}
          onInput={(event) => (apiKey.value = event.currentTarget.value)}
        />
        <button type="submit" disabled={busy.value || apiKey.value === ""}>
          {t("settings.save")}
        </button>
      </form>
      <div class="settings-buttons">
        <button
          type="button"
          class="discover"
          disabled={busy.value || (!provider.credentialConfigured && apiKey.value === "")}
          onClick={discover}
        >
          {t("settings.discover")}
        </button>
        {provider.configured && (
          <button
            type="button"
            disabled={busy.value}
            onClick={() => void run(() => disconnectProvider(provider.id))}
          >
            {t("settings.deepseek.disconnect")}
          </button>
        )}
      </div>
      {problem.value && <p class="settings-error" role="alert">{problem.value}</p>}
      {found.value && (
        <DiscoverPicker
          found={found.value}
          existing={modelsOf(provider.id).map((model) => model.id)}
          onAdd={addPicked}
          onCancel={() => (found.value = null)}
        />
      )}
    </div>
  );
}

/** A custom provider: edit, or remove after a confirmation. */
function CustomActions({ provider, onEdit }: { provider: Provider; onEdit: () => void }) {
  const confirming = useSignal(false);
  const problem = useSignal<string | null>(null);
  const remove = async () => {
    problem.value = await removeProvider(provider.id);
    confirming.value = false;
  };
  return (
    <div class="provider-actions">
      {confirming.value
        ? (
          <div class="settings-confirm" role="group" aria-label={t("settings.custom.remove")}>
            <span>{t("settings.custom.confirmRemove", { name: provider.displayName })}</span>
            <button type="button" class="danger" onClick={() => void remove()}>
              {t("settings.custom.remove")}
            </button>
            <button type="button" autofocus onClick={() => (confirming.value = false)}>
              {t("settings.cancel")}
            </button>
          </div>
        )
        : (
          <div class="settings-buttons">
            <button type="button" onClick={onEdit}>{t("settings.custom.edit")}</button>
            <button type="button" onClick={() => (confirming.value = true)}>
              {t("settings.custom.remove")}
            </button>
          </div>
        )}
      {problem.value && <p class="settings-error" role="alert">{problem.value}</p>}
    </div>
  );
}

import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import { loadProviders, providers } from "../../state/providers.ts";
import { models } from "../../state/store.ts";
import { ProviderCard } from "./ProviderCard.tsx";
import { CustomProviderForm } from "./CustomProviderForm.tsx";

/**
 * Settings › Providers and models: every provider (built-in DeepSeek first, then the
 * custom ones) with its state and models, and a form to add a custom OpenAI-compatible
 * provider. When no model is usable it says so first: that is why the composer sent the
 * user here.
 */
export function ProvidersSection() {
  const adding = useSignal(false);
  useEffect(() => {
    void loadProviders();
  }, []);
  const list = providers.value;
  return (
    <div class="settings-providers">
      <h3>{t("settings.section.providers")}</h3>
      {models.value.length === 0 && (
        <p class="settings-notice" role="status">{t("settings.providers.noUsableModel")}</p>
      )}
      {list === null && <p class="muted" role="status">{t("settings.providers.loading")}</p>}
      {list?.map((provider) => <ProviderCard key={provider.id} provider={provider} />)}
      {adding.value
        ? (
          <CustomProviderForm
            onDone={() => (adding.value = false)}
            title={t("settings.custom.addTitle")}
          />
        )
        : (
          <button type="button" class="settings-add" onClick={() => (adding.value = true)}>
            {t("settings.custom.add")}
          </button>
        )}
    </div>
  );
}

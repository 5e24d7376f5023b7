import { closeOnEscape } from "../escape_keys.ts";
import { useSignal } from "@preact/signals";
import type { DiscoveredModel, Provider } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";
import { configureProvider, discoverModels, modelsOf } from "../../state/providers.ts";
import {
  addModelIds,
  type CustomProviderDraft,
  customProviderParams,
  discoverParams,
  emptyCustomDraft,
  type FieldProblem,
  parseModelIds,
} from "../../state/provider_form.ts";
import { DiscoverPicker } from "./DiscoverPicker.tsx";
import { applyPreset, presetById, PROVIDER_PRESETS } from "../../state/provider_presets.ts";
import { sendChecked } from "./send_checked.ts";

type Field = keyof CustomProviderDraft;

/** The form as it opens: blank, or the saved provider (its key and headers are never sent back). */
function initialDraft(provider: Provider | undefined): CustomProviderDraft {
  if (!provider) return emptyCustomDraft();
  return {
    ...emptyCustomDraft(),
    providerId: provider.id,
    displayName: provider.displayName,
    baseUrl: provider.baseUrl ?? "",
    models: modelsOf(provider.id).map((model) => model.id).join("\n"),
  };
}

/**
 * Adds or edits a custom OpenAI-compatible provider. Problems found here are shown beside
 * their fields; the runtime's refusal is shown under the form; either way what the user
 * typed stays.
 */
export function CustomProviderForm(
  { provider, title, onDone }: { provider?: Provider; title: string; onDone: () => void },
) {
  const draft = useSignal<CustomProviderDraft>(initialDraft(provider));
  const problems = useSignal<FieldProblem<Field>[]>([]);
  const failure = useSignal<string | null>(null);
  const busy = useSignal(false);
  const found = useSignal<DiscoveredModel[] | null>(null);
  const discovered = useSignal<Record<string, DiscoveredModel>>({});
  const preset = useSignal<string>("");
  const edit = (field: Field, value: string) => (draft.value = { ...draft.value, [field]: value });
  const problemOf = (field: Field) => problems.value.find((problem) => problem.field === field);

  const form = { problems, failure, busy };
  const save = async (event: Event) => {
    event.preventDefault();
    const checked = customProviderParams(draft.value, discovered.value);
    if (await sendChecked(form, checked, configureProvider)) onDone();
  };
  const discover = async () => {
    const checked = discoverParams({ ...draft.value, kind: "custom", providerId: provider?.id });
    const sent = await sendChecked(form, checked, discoverModels);
    if (sent) found.value = sent.value;
  };
  const addPicked = (picked: DiscoveredModel[]) => {
    edit("models", addModelIds(draft.value.models, picked.map((model) => model.id)));
    discovered.value = {
      ...discovered.value,
      ...Object.fromEntries(picked.map((model) => [model.id, model])),
    };
    found.value = null;
  };

  const field = (
    name: Field,
    label: string,
    input: {
      secret?: boolean;
      url?: boolean;
      multiline?: boolean;
      readOnly?: boolean;
      hint?: string;
    },
  ) => {
    const id = `custom-${name}`;
    const problem = problemOf(name);
    const shared = {
      id,
      name,
      value: draft.value[name],
      readOnly: input.readOnly,
      "aria-invalid": problem ? true : undefined,
      "aria-describedby": problem ? `${id}-problem` : input.hint ? `${id}-hint` : undefined,
      spellcheck: false,
      onInput: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
        edit(name, event.currentTarget.value),
    };
    return (
      <div class="settings-field">
        <label for={id}>{label}</label>
        {input.multiline
          ? <textarea rows={3} {...shared} />
          : input.secret
          ? <input type="password" autocomplete="off" {...shared} />
          : (
            <input
              type="text"
              inputMode={input.url ? "url" : undefined}
              autocomplete="off"
              {...shared}
            />
          )}
        {input.hint && !problem && <small id={`${id}-hint`} class="muted">{input.hint}</small>}
        {problem && (
          <small id={`${id}-problem`} class="settings-problem">
            {t(problem.key, problem.vars)}
          </small>
        )}
      </div>
    );
  };

  return (
    <form
      class="provider-form"
      aria-label={title}
      onSubmit={save}
      onKeyDown={closeOnEscape(onDone)}
      noValidate
    >
      <h4>{title}</h4>
      {provider === undefined && (
        // A new provider can start from a known service: id, name and base URL filled in.
        <div class="settings-field">
          <label for="custom-preset">{t("settings.preset.label")}</label>
          <select
            id="custom-preset"
            value={preset.value}
            onChange={(event) => {
              const next = presetById(event.currentTarget.value);
              draft.value = applyPreset(draft.value, presetById(preset.value), next);
              preset.value = next?.id ?? "";
            }}
          >
            <option value="">{t("settings.preset.other")}</option>
            {PROVIDER_PRESETS.map((option) => (
              <option key={option.id} value={option.id}>{option.displayName}</option>
            ))}
          </select>
          {presetById(preset.value) && (
            <small class="muted">{t(presetById(preset.value)!.hint)}</small>
          )}
        </div>
      )}
      {field("providerId", t("settings.custom.id"), {
        readOnly: provider !== undefined,
        hint: t("settings.custom.idHint"),
      })}
      {field("displayName", t("settings.custom.name"), {})}
      {field("baseUrl", t("settings.custom.baseUrl"), {
        url: true,
        hint: t("settings.custom.baseUrlHint"),
      })}
      {field("apiKey", t("settings.custom.apiKey"), {
        secret: true,
        hint: provider?.credentialConfigured
          ? t("settings.custom.keyKept")
          : t("settings.custom.keyOptional"),
      })}
      {field("headers", t("settings.custom.headers"), {
        multiline: true,
        hint: provider ? t("settings.custom.headersKept") : t("settings.custom.headersHint"),
      })}
      {field("models", t("settings.custom.models"), {
        multiline: true,
        hint: t("settings.custom.modelsHint"),
      })}
      {found.value && (
        <DiscoverPicker
          found={found.value}
          existing={parseModelIds(draft.value.models)}
          onAdd={addPicked}
          onCancel={() => (found.value = null)}
        />
      )}
      {failure.value && <p class="settings-error" role="alert">{failure.value}</p>}
      <div class="settings-buttons">
        <button
          type="button"
          class="discover"
          disabled={busy.value}
          onClick={() => void discover()}
        >
          {t("settings.discover")}
        </button>
        <button type="submit" class="primary" disabled={busy.value}>{t("settings.save")}</button>
        <button type="button" onClick={onDone}>{t("settings.cancel")}</button>
      </div>
    </form>
  );
}

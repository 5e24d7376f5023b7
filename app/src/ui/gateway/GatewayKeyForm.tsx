import { useState } from "preact/hooks";
import type { Model } from "@daedalus/client";
import {
  checkKeyForm,
  emptyKeyForm,
  type FieldProblem,
  KEY_PERMISSIONS,
  type KeyForm,
  modelChoice,
} from "../../state/gateway_form.ts";
import { createGatewayKey, gatewayKeysView } from "../../state/gateway_keys.ts";
import { t } from "../../i18n/i18n.ts";
import type { MessageKey } from "../../i18n/en.ts";

type Field = keyof KeyForm;

/**
 * The "new app key" form: name, model (the enabled configured models, by provider),
 * permission preset, and the optional workspace, tool subset and allowed origins. It is
 * checked as the runtime checks it before sending; what only the runtime knows comes
 * back as a reason code in the section's failure line.
 *
 * @param props.models the configured models (only enabled ones are offered)
 * @param props.toolChoices the tools a key can be limited to (gateway_form.ts)
 */
export function GatewayKeyForm(
  props: { models: readonly Model[]; toolChoices: readonly string[] },
) {
  const enabled = props.models.filter((model) => model.enabled);
  const firstChoice = enabled[0] ? modelChoice(enabled[0].providerId, enabled[0].id) : "";
  const [form, setForm] = useState<KeyForm>(() => emptyKeyForm(firstChoice));
  const [problems, setProblems] = useState<Partial<Record<Field, FieldProblem>>>({});
  const creating = gatewayKeysView.value.creating;
  // The models may arrive after the form first rendered.
  const model = form.model === "" ? firstChoice : form.model;
  // Editing a field clears its problem; the others stay until the next submit.
  const set = (field: Field) => (event: { currentTarget: { value: string } }) => {
    setForm({ ...form, model, [field]: event.currentTarget.value });
    if (problems[field]) setProblems({ ...problems, [field]: undefined });
  };
  const toggleTool = (tool: string, on: boolean) =>
    setForm({
      ...form,
      model,
      tools: on ? [...form.tools, tool] : form.tools.filter((chosen) => chosen !== tool),
    });
  const providers = [...new Set(enabled.map((m) => m.providerId))];

  const submit = async (event: Event) => {
    event.preventDefault();
    if (creating) return;
    const checked = checkKeyForm({ ...form, model });
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    if (await createGatewayKey(checked.params)) setForm(emptyKeyForm(firstChoice));
  };

  const hint = (field: Field, hintKey: MessageKey | null) => {
    const problem = problems[field];
    if (problem) {
      return (
        <p class="section-failure gateway-field-note" id={`gateway-${field}-note`}>
          {t(problem.key, problem.values)}
        </p>
      );
    }
    return hintKey
      ? <p class="muted gateway-field-note" id={`gateway-${field}-note`}>{t(hintKey)}</p>
      : null;
  };
  const described = (field: Field, hasHint: boolean) =>
    problems[field] || hasHint ? `gateway-${field}-note` : undefined;

  return (
    <form class="gateway-form" aria-labelledby="gateway-form-title" onSubmit={submit} noValidate>
      <h4 id="gateway-form-title">{t("gateway.form.title")}</h4>
      <div class="gateway-form-row">
        <label>
          <span>{t("gateway.form.name")}</span>
          <input
            name="name"
            value={form.name}
            placeholder={t("gateway.form.namePlaceholder")}
            autocomplete="off"
            aria-invalid={problems.name !== undefined}
            aria-describedby={described("name", false)}
            onInput={set("name")}
          />
          {hint("name", null)}
        </label>
        <label>
          <span>{t("gateway.form.model")}</span>
          <select
            name="model"
            value={model}
            aria-invalid={problems.model !== undefined}
            aria-describedby={described("model", enabled.length === 0)}
            onChange={set("model")}
          >
            {providers.map((providerId) => (
              <optgroup key={providerId} label={providerId}>
                {enabled.filter((m) => m.providerId === providerId).map((m) => (
                  <option key={m.id} value={modelChoice(m.providerId, m.id)}>
                    {m.displayName || m.id}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          {enabled.length === 0 && !problems.model
            ? (
              <p class="muted gateway-field-note" id="gateway-model-note">
                {t("gateway.form.noModels")}
              </p>
            )
            : hint("model", null)}
        </label>
        <label>
          <span>{t("gateway.form.permission")}</span>
          <select name="permission" value={form.permission} onChange={set("permission")}>
            {KEY_PERMISSIONS.map((policy) => (
              <option key={policy} value={policy}>
                {t(`permissions.preset.${policy}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label>
        <span>{t("gateway.form.workspace")}</span>
        <input
          name="workspace"
          value={form.workspace}
          placeholder="/home/me/project"
          spellcheck={false}
          autocomplete="off"
          aria-invalid={problems.workspace !== undefined}
          aria-describedby={described("workspace", true)}
          onInput={set("workspace")}
        />
        {hint("workspace", "gateway.form.workspaceHint")}
      </label>
      <fieldset
        class="gateway-tools"
        aria-describedby={described("tools", form.toolsMode === "only")}
      >
        <legend>{t("gateway.form.tools")}</legend>
        <label class="gateway-choice">
          <input
            type="radio"
            name="tools-mode"
            value="all"
            checked={form.toolsMode === "all"}
            onChange={() =>
              setForm({ ...form, model, toolsMode: "all" })}
          />
          <span>{t("gateway.toolsAll")}</span>
        </label>
        <label class="gateway-choice">
          <input
            type="radio"
            name="tools-mode"
            value="only"
            checked={form.toolsMode === "only"}
            onChange={() =>
              setForm({ ...form, model, toolsMode: "only" })}
          />
          <span>{t("gateway.form.toolsOnly")}</span>
        </label>
        {form.toolsMode === "only" && (
          <div class="gateway-tool-grid" role="group" aria-label={t("gateway.form.toolsPick")}>
            {props.toolChoices.map((tool) => (
              <label key={tool} class="gateway-choice">
                <input
                  type="checkbox"
                  name="tool"
                  value={tool}
                  checked={form.tools.includes(tool)}
                  onChange={(event) => toggleTool(tool, event.currentTarget.checked)}
                />
                <code>{tool}</code>
              </label>
            ))}
          </div>
        )}
        {hint("tools", form.toolsMode === "only" ? "gateway.form.toolsHint" : null)}
      </fieldset>
      <label>
        <span>{t("gateway.form.origins")}</span>
        <textarea
          name="origins"
          rows={2}
          value={form.origins}
          spellcheck={false}
          aria-invalid={problems.origins !== undefined}
          aria-describedby={described("origins", true)}
          onInput={set("origins")}
        />
        {hint("origins", "gateway.form.originsHint")}
      </label>
      <div>
        <button type="submit" aria-disabled={creating}>
          {creating ? t("gateway.form.creating") : t("gateway.form.create")}
        </button>
      </div>
    </form>
  );
}

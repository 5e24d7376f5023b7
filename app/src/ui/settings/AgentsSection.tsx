import { useEffect, useState } from "preact/hooks";
import type { AgentInfo, AgentProfile, PermissionPreset } from "@daedalus/client";
import {
  agentsView,
  copyProfile,
  loadAgents,
  removeAgent,
  saveAgent,
  withSelection,
} from "../../state/agents.ts";
import { t } from "../../i18n/i18n.ts";
import type { MessageKey } from "../../i18n/en.ts";
import { FailureLine } from "./FailureLine.tsx";
import { models } from "../../state/store.ts";
import { defaultModelView, modelLabel } from "../../state/default_model.ts";
import { DefaultModelField } from "./DefaultModelField.tsx";
import "./data_sections.css";
import "./agents.css";

const PRESETS: readonly PermissionPreset[] = [
  "read_only",
  "ask",
  "workspace_write",
  "full_access",
];

/** What the editor works on: a profile and whether it is new (its id still editable). */
interface Draft {
  profile: AgentProfile;
  isNew: boolean;
  /** The profile it was made from, for the heading. */
  from: string;
}

/**
 * Settings › Agents: the default model (of agents without one), every profile (built-ins
 * first) with Copy, and Edit / Remove for the saved ones; the editor sets the name, description, permission, tools, skills,
 * instructions and recall, and saves with `agent.save` (a refusal names the field).
 */
export function AgentsSection() {
  useEffect(() => {
    void loadAgents();
  }, []);
  const [draft, setDraft] = useState<Draft | null>(null);
  const view = agentsView.value;
  const loading = view.status === "loading";
  const ids = view.agents.map((info) => info.profile.id);
  if (draft) {
    return (
      <div class="data-section agents-section">
        <AgentEditor
          draft={draft}
          onChange={(profile) => setDraft({ ...draft, profile })}
          onDone={() => setDraft(null)}
        />
      </div>
    );
  }
  return (
    <div class="data-section agents-section" aria-busy={loading}>
      <header class="section-header">
        <h3>{t("agents.title")}</h3>
      </header>
      <p class="muted">{t("agents.intro")}</p>
      <DefaultModelField />
      {view.error && <FailureLine failure={view.error} />}
      {view.removed && (
        <p role="status" class="agents-removed">
          {t("agents.removed", {
            agentId: view.removed.agentId,
            count: view.removed.movedThreads,
            movedTo: view.removed.movedTo,
          })}
        </p>
      )}
      {view.status !== "ready" && view.agents.length === 0 && !view.error && (
        <p class="muted">{t("agents.loading")}</p>
      )}
      <ul class="agent-list" aria-label={t("agents.listLabel")}>
        {view.agents.map((info) => (
          <AgentRow
            key={info.profile.id}
            info={info}
            onCopy={() =>
              setDraft({
                profile: copyProfile(
                  info.profile,
                  ids,
                  (name) => t("agents.copyOf", { name }),
                ),
                isNew: true,
                from: info.profile.name,
              })}
            onEdit={() =>
              setDraft({ profile: info.profile, isNew: false, from: info.profile.name })}
          />
        ))}
      </ul>
    </div>
  );
}

function selectionText(list: readonly string[] | undefined): string {
  if (list === undefined) return t("agents.all");
  return list.length === 0 ? t("agents.none") : list.join(", ");
}

function AgentRow(
  { info, onCopy, onEdit }: { info: AgentInfo; onCopy: () => void; onEdit: () => void },
) {
  const [confirming, setConfirming] = useState(false);
  const { profile } = info;
  const pending = agentsView.value.pending;
  return (
    <li class="agent-row" data-agent={profile.id}>
      <div class="agent-heading">
        <span class="agent-name">{profile.name}</span>
        <code class="agent-id">{profile.id}</code>
        {info.builtIn && (
          <span class="agent-badge">{info.saved ? t("agents.edited") : t("agents.builtIn")}</span>
        )}
        {info.isDefault && <span class="agent-badge accent">{t("agents.default")}</span>}
      </div>
      {profile.description && <p class="agent-description">{profile.description}</p>}
      <p class="muted agent-facts">
        {t("agents.permissionLine", {
          preset: t(`agents.preset.${profile.permission}` as MessageKey),
        })}
        {" · "}
        {t("agents.toolsLine", { tools: selectionText(profile.tools) })}
      </p>
      {confirming
        ? (
          <div class="settings-confirm" role="group" aria-label={t("agents.remove")}>
            <span>{t("agents.removeConfirm", { name: profile.name })}</span>
            <button
              type="button"
              class="danger"
              onClick={() => void removeAgent(profile.id).then(() => setConfirming(false))}
            >
              {info.builtIn ? t("agents.restore") : t("agents.remove")}
            </button>
            <button type="button" autofocus onClick={() => setConfirming(false)}>
              {t("agents.cancel")}
            </button>
          </div>
        )
        : (
          <div class="settings-buttons">
            <button
              type="button"
              aria-label={`${t("agents.copy")} ${profile.name}`}
              onClick={onCopy}
            >
              {t("agents.copy")}
            </button>
            {info.saved && (
              <>
                <button
                  type="button"
                  aria-label={`${t("agents.edit")} ${profile.name}`}
                  onClick={onEdit}
                >
                  {t("agents.edit")}
                </button>
                <button
                  type="button"
                  aria-disabled={pending}
                  onClick={() => pending || setConfirming(true)}
                >
                  {info.builtIn ? t("agents.restore") : t("agents.remove")}
                </button>
              </>
            )}
          </div>
        )}
    </li>
  );
}

function AgentEditor(
  { draft, onChange, onDone }: {
    draft: Draft;
    onChange: (profile: AgentProfile) => void;
    onDone: () => void;
  },
) {
  const view = agentsView.value;
  const [makeDefault, setMakeDefault] = useState(view.defaultAgentId === draft.profile.id);
  const { profile } = draft;
  // Without a model of its own the profile's Runs fall back to Settings' default model.
  const fallback = defaultModelView.value.model;
  const set = (change: Partial<AgentProfile>) => onChange({ ...profile, ...change });
  const submit = async (event: Event) => {
    event.preventDefault();
    const cleaned: AgentProfile = { ...profile };
    if (!cleaned.description) delete cleaned.description;
    if (!cleaned.instructions) delete cleaned.instructions;
    if (await saveAgent(cleaned, makeDefault)) onDone();
  };
  return (
    <form class="agent-editor" onSubmit={(event) => void submit(event)}>
      <h3>
        {draft.isNew
          ? t("agents.newTitle", { name: draft.from })
          : t("agents.editorTitle", { name: draft.from })}
      </h3>
      {view.error && <FailureLine failure={view.error} />}
      <label>
        {t("agents.field.id")}
        <input
          name="id"
          value={profile.id}
          readOnly={!draft.isNew}
          required
          pattern="[a-z0-9][a-z0-9_\-]{0,63}"
          onInput={(event) => set({ id: event.currentTarget.value })}
        />
        {draft.isNew && <span class="muted">{t("agents.field.idHint")}</span>}
      </label>
      <label>
        {t("agents.field.name")}
        <input
          name="name"
          value={profile.name}
          required
          maxLength={100}
          onInput={(event) => set({ name: event.currentTarget.value })}
        />
      </label>
      <label>
        {t("agents.field.description")}
        <input
          name="description"
          value={profile.description ?? ""}
          maxLength={1000}
          onInput={(event) => set({ description: event.currentTarget.value })}
        />
      </label>
      <label>
        {t("agents.field.model")}
        <select
          name="model"
          value={profile.model ? `${profile.model.providerId}/${profile.model.modelId}` : ""}
          onChange={(event) => {
            const picked = models.value.find((model) =>
              `${model.providerId}/${model.id}` === event.currentTarget.value
            );
            const next = { ...profile };
            if (picked) next.model = { providerId: picked.providerId, modelId: picked.id };
            else delete next.model;
            onChange(next);
          }}
        >
          <option value="">
            {fallback
              ? t("agents.field.modelDefault", { model: modelLabel(models.value, fallback) })
              : t("agents.field.modelNone")}
          </option>
          {profile.model && !models.value.some((model) =>
            model.providerId === profile.model?.providerId && model.id === profile.model.modelId
          ) && (
            <option value={`${profile.model.providerId}/${profile.model.modelId}`}>
              {`${profile.model.providerId}/${profile.model.modelId}`}
            </option>
          )}
          {models.value.map((model) => (
            <option
              key={`${model.providerId}/${model.id}`}
              value={`${model.providerId}/${model.id}`}
            >
              {model.displayName}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("agents.field.permission")}
        <select
          name="permission"
          value={profile.permission}
          onChange={(event) => set({ permission: event.currentTarget.value as PermissionPreset })}
        >
          {PRESETS.map((preset) => (
            <option key={preset} value={preset}>
              {t(`agents.preset.${preset}` as MessageKey)}
            </option>
          ))}
        </select>
      </label>
      <SelectionField
        legend={t("agents.field.tools")}
        allLabel={t("agents.field.allTools")}
        name="tools"
        choices={view.tools}
        value={profile.tools}
        onChange={(value) => onChange(withSelection(profile, "tools", value))}
      />
      <SelectionField
        legend={t("agents.field.skills")}
        allLabel={t("agents.field.allSkills")}
        name="skills"
        choices={view.skills}
        value={profile.skills}
        onChange={(value) => onChange(withSelection(profile, "skills", value))}
      />
      <label>
        {t("agents.field.instructions")}
        <textarea
          name="instructions"
          rows={4}
          maxLength={32768}
          value={profile.instructions ?? ""}
          onInput={(event) => set({ instructions: event.currentTarget.value })}
        />
      </label>
      <label class="agent-check">
        <input
          type="checkbox"
          checked={profile.memory.recall}
          onChange={(event) =>
            set({ memory: { ...profile.memory, recall: event.currentTarget.checked } })}
        />
        {t("agents.field.recall")}
      </label>
      <label class="agent-check">
        <input
          type="checkbox"
          checked={makeDefault}
          onChange={(event) => setMakeDefault(event.currentTarget.checked)}
        />
        {t("agents.field.makeDefault")}
      </label>
      <div class="settings-buttons">
        <button type="submit" class="primary" aria-disabled={view.pending}>
          {view.pending ? t("agents.saving") : t("agents.save")}
        </button>
        <button type="button" onClick={onDone}>{t("agents.cancel")}</button>
      </div>
    </form>
  );
}

/**
 * A selection: "all" (the list left out, seed 003) or a checklist; unticking "all" starts
 * from every choice ticked, so narrowing is unticking what is not wanted.
 */
function SelectionField(
  { legend, allLabel, name, choices, value, onChange }: {
    legend: string;
    allLabel: string;
    name: string;
    choices: readonly string[];
    value: readonly string[] | undefined;
    onChange: (value: string[] | null) => void;
  },
) {
  const all = value === undefined;
  // Names saved earlier that the runtime no longer has stay visible (and can be unticked).
  const shown = [...choices, ...(value ?? []).filter((item) => !choices.includes(item))];
  return (
    <fieldset class="agent-selection" data-field={name}>
      <legend>{legend}</legend>
      <label class="agent-check">
        <input
          type="checkbox"
          name={`${name}-all`}
          checked={all}
          onChange={(event) => onChange(event.currentTarget.checked ? null : [...choices])}
        />
        {allLabel}
      </label>
      {!all && (
        <div class="agent-choices">
          {shown.map((choice) => (
            <label key={choice} class="agent-check">
              <input
                type="checkbox"
                name={name}
                value={choice}
                checked={value.includes(choice)}
                onChange={(event) =>
                  onChange(
                    event.currentTarget.checked
                      ? shown.filter((item) => item === choice || value.includes(item))
                      : value.filter((item) => item !== choice),
                  )}
              />
              <code>{choice}</code>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

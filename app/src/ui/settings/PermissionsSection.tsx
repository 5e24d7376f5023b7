import { useEffect, useState } from "preact/hooks";
import type { PermissionsView } from "@daedalus/client";
import { type MessageKey, t } from "../../i18n/i18n.ts";
import {
  addPermissionRule,
  loadPermissionSettings,
  type PermissionPart,
  permissionSettings,
  type PermissionSettingsView,
  removePermissionRule,
  ruleFromForm,
  updatePermissionSettings,
} from "../../state/permission_settings.ts";
import { loadMcp, mcpView } from "../../state/mcp_servers.ts";
import { mcpRuleSuggestions, ruleToolName } from "../../state/mcp_rules.ts";
import { FailureLine } from "./FailureLine.tsx";
import { ruleToolLabel } from "./rule_tool_label.ts";
import "./permissions.css";

const PRESETS = ["read_only", "ask", "workspace_write", "full_access"] as const;
const HIGH_RISK = ["ask", "allow"] as const;
const DECISIONS = ["allow", "ask", "deny"] as const;
/** Suggestions for the rule form's tool field; the runtime validates whatever is typed. */
const TOOL_SUGGESTIONS = [
  "*",
  "group:read",
  "group:write",
  "group:process",
  "group:session",
  "group:memory",
  "read",
  "write",
  "edit",
  "list",
  "grep",
  "glob",
  "process_start",
];

/**
 * Settings › Permissions: the preset new runs start from (each explained), what
 * high-risk commands get, and config.yaml's rules with remove and a form to add one.
 * Loads when mounted (with `mcp.list`, so the form offers the MCP servers' tools); every
 * change shows the runtime's answer or its refusal.
 */
export function PermissionsSection() {
  useEffect(() => {
    void loadPermissionSettings();
    void loadMcp();
  }, []);
  return <PermissionsPanel view={permissionSettings.value} />;
}

/**
 * The section for one state of the view.
 *
 * @param props the view to show
 */
export function PermissionsPanel({ view }: { view: PermissionSettingsView }) {
  const { settings } = view;
  // A failure is shown beside what failed: a refused Remove at the bottom of a long list
  // must not report at the top, out of sight.
  const failureAt = (part: PermissionPart) =>
    view.error && view.errorAt === part && <FailureLine failure={view.error} />;
  return (
    <div class="permissions-section" aria-busy={view.status === "loading" || view.saving}>
      <h3>{t("settings.section.permissions")}</h3>
      <p class="muted">{t("permissions.intro")}</p>
      {failureAt("load")}
      {settings === null
        ? view.status !== "failed" && <p class="muted">{t("permissions.loading")}</p>
        : (
          <>
            {failureAt("defaults")}
            <PresetChoice settings={settings} saving={view.saving} />
            <HighRiskChoice settings={settings} saving={view.saving} />
            <RuleList settings={settings} saving={view.saving} />
            {failureAt("rules")}
            <AddRuleForm saving={view.saving} />
          </>
        )}
      {view.saving && <p role="status" class="muted">{t("permissions.saving")}</p>}
    </div>
  );
}

function PresetChoice({ settings, saving }: { settings: PermissionsView; saving: boolean }) {
  return (
    <fieldset class="permission-presets">
      <legend>{t("permissions.preset")}</legend>
      {PRESETS.map((preset) => (
        <label key={preset} class="permission-choice">
          <input
            type="radio"
            name="permission-preset"
            value={preset}
            checked={settings.preset === preset}
            disabled={saving}
            aria-describedby={`preset-hint-${preset}`}
            onChange={() => void updatePermissionSettings({ preset })}
          />
          <span>
            <strong>{t(`permissions.preset.${preset}` as MessageKey)}</strong>
            <span class="muted" id={`preset-hint-${preset}`}>
              {t(`permissions.preset.${preset}.hint` as MessageKey)}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function HighRiskChoice({ settings, saving }: { settings: PermissionsView; saving: boolean }) {
  return (
    <fieldset class="permission-high-risk" aria-describedby="high-risk-hint">
      <legend>{t("permissions.highRisk")}</legend>
      <p class="muted" id="high-risk-hint">{t("permissions.highRisk.hint")}</p>
      {HIGH_RISK.map((value) => (
        <label key={value} class="permission-choice inline">
          <input
            type="radio"
            name="permission-high-risk"
            value={value}
            checked={settings.highRiskCommands === value}
            disabled={saving}
            onChange={() => void updatePermissionSettings({ highRiskCommands: value })}
          />
          <span>{t(`permissions.highRisk.${value}` as MessageKey)}</span>
        </label>
      ))}
    </fieldset>
  );
}

function RuleList({ settings, saving }: { settings: PermissionsView; saving: boolean }) {
  return (
    <section class="permission-rules" aria-labelledby="permission-rules-title">
      <h4 id="permission-rules-title">{t("permissions.rules")}</h4>
      <p class="muted">{t("permissions.rules.hint")}</p>
      {settings.rules.length === 0
        ? <p class="muted permission-rules-empty">{t("permissions.rules.empty")}</p>
        : (
          <table aria-label={t("permissions.rules.table")}>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t("permissions.rule.tool")}</th>
                <th scope="col">{t("permissions.rule.pattern")}</th>
                <th scope="col">{t("permissions.rule.decision")}</th>
                <th scope="col">
                  <span class="visually-hidden">{t("permissions.rule.remove")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {settings.rules.map((rule) => (
                <tr key={`${rule.index}:${rule.tool}:${rule.pattern ?? ""}:${rule.decision}`}>
                  <td>{rule.index + 1}</td>
                  <td>
                    {ruleToolName(rule.tool).kind === "builtin"
                      ? <code>{rule.tool}</code>
                      : (
                        <span class="permission-mcp-tool" title={rule.tool}>
                          {ruleToolLabel(rule.tool)}
                        </span>
                      )}
                  </td>
                  <td>
                    {rule.pattern === undefined
                      ? <span class="muted">{t("permissions.rule.anyTarget")}</span>
                      : <code>{rule.pattern}</code>}
                  </td>
                  <td class={`decision-${rule.decision}`}>
                    {t(`permissions.decision.${rule.decision}` as MessageKey)}
                  </td>
                  <td>
                    <button
                      type="button"
                      class="remove-rule"
                      aria-disabled={saving}
                      aria-label={t("permissions.rule.removeLabel", {
                        index: rule.index + 1,
                        tool: ruleToolLabel(rule.tool),
                        pattern: rule.pattern ?? t("permissions.rule.anyTarget"),
                        decision: t(`permissions.decision.${rule.decision}` as MessageKey),
                      })}
                      onClick={() =>
                        saving || void removePermissionRule(rule)}
                    >
                      {t("permissions.rule.remove")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
    </section>
  );
}

function AddRuleForm({ saving }: { saving: boolean }) {
  const [tool, setTool] = useState("process_start");
  const [pattern, setPattern] = useState("");
  const [decision, setDecision] = useState<string>("allow");
  // MCP rules name a server or a tool, never a target: the pattern field does not apply.
  const mcpTool = ruleToolName(tool.trim()).kind !== "builtin";
  const submit = async (event: Event) => {
    event.preventDefault();
    if (saving) return;
    const added = await addPermissionRule(
      ruleFromForm({ tool: tool.trim(), pattern: mcpTool ? "" : pattern, decision }),
    );
    if (added) setPattern("");
  };
  return (
    <form class="permission-add" onSubmit={(event) => void submit(event)}>
      <h4>{t("permissions.add")}</h4>
      <div class="permission-add-fields">
        <label class="settings-field">
          <span>{t("permissions.rule.tool")}</span>
          <input
            type="text"
            name="tool"
            list="permission-tools"
            required
            value={tool}
            onInput={(event) => setTool(event.currentTarget.value)}
          />
          <datalist id="permission-tools">
            {TOOL_SUGGESTIONS.map((id) => <option key={id} value={id} />)}
            {mcpRuleSuggestions(mcpView.value.servers).map((suggestion) => (
              <option
                key={suggestion.value}
                value={suggestion.value}
                label={ruleToolLabel(suggestion.name)}
              />
            ))}
          </datalist>
        </label>
        <label class="settings-field grow">
          <span>{t("permissions.rule.pattern")}</span>
          <input
            type="text"
            name="pattern"
            value={mcpTool ? "" : pattern}
            disabled={mcpTool}
            aria-describedby="permission-pattern-hint"
            onInput={(event) => setPattern(event.currentTarget.value)}
          />
        </label>
        <label class="settings-field">
          <span>{t("permissions.rule.decision")}</span>
          <select
            name="decision"
            value={decision}
            onChange={(event) => setDecision(event.currentTarget.value)}
          >
            {DECISIONS.map((value) => (
              <option key={value} value={value}>
                {t(`permissions.decision.${value}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p class="muted" id="permission-pattern-hint">
        {mcpTool ? t("permissions.add.mcpNoPattern") : t("permissions.add.patternHint")}
      </p>
      <button type="submit" class="add-rule" aria-disabled={saving}>
        {t("permissions.add.submit")}
      </button>
    </form>
  );
}

import { useEffect } from "preact/hooks";
import { useSignal } from "@preact/signals";
import type { McpServer } from "@daedalus/client";
import {
  addMcpServer,
  emptyMcpForm,
  loadMcp,
  type McpForm,
  mcpView,
  removeMcpServer,
  restartMcpServer,
  setMcpServerEnabled,
  setMcpToolEnabled,
} from "../../state/mcp_servers.ts";
import type { CallFailure } from "../../state/call_failure.ts";
import { onJournalEvent } from "../../state/store.ts";
import { loadPermissionSettings, permissionSettings } from "../../state/permission_settings.ts";
import { applyMcpToolChoice, mcpRuleTool, mcpToolRuleDecision } from "../../state/mcp_rules.ts";
import { t } from "../../i18n/i18n.ts";
import { FailureLine } from "./FailureLine.tsx";
import "./data_sections.css";
import "./skills.css";
import "./mcp.css";

/**
 * Settings → Tools (MCP): each configured server with its status (the reason when it
 * failed), its switch, Restart and Remove, its tools with a switch each and its log's last
 * lines; then a form that adds a server by command or URL, with env variables or headers
 * as masked rows. Each tool has a quick Always allow / Ask / Deny that writes (or, chosen
 * again, removes) its `mcp:<server>/<tool>` permission rule. The list is read when mounted
 * and again on every `mcp.status_changed`; the permission rules when mounted.
 */
export function McpSection() {
  useEffect(() => {
    void loadMcp();
    void loadPermissionSettings();
    return onJournalEvent((event) => {
      if (event.type === "mcp.status_changed") void loadMcp();
    });
  }, []);
  const view = mcpView.value;
  const loading = view.status === "loading";
  const firstLoad = (view.status === "idle" || loading) && view.servers.length === 0;
  return (
    <div class="data-section mcp-section" aria-busy={loading}>
      <header class="section-header">
        <h3>{t("mcp.title")}</h3>
        <button type="button" aria-disabled={loading} onClick={() => loading || void loadMcp()}>
          {loading ? t("mcp.refreshing") : t("mcp.refresh")}
        </button>
      </header>
      <p class="muted">{t("mcp.intro")}</p>
      {view.error && <FailureLine failure={view.error} />}
      {permissionSettings.value.error && permissionSettings.value.errorAt === "rules" && (
        <FailureLine failure={permissionSettings.value.error} />
      )}
      {firstLoad && <p class="muted">{t("mcp.loading")}</p>}
      {view.status === "ready" && view.servers.length === 0 && <p class="muted">{t("mcp.none")}</p>}
      {view.servers.length > 0 && (
        <ul class="mcp-servers" aria-label={t("mcp.listLabel")}>
          {view.servers.map((server) => (
            <ServerCard key={server.name} server={server} pending={view.pending} />
          ))}
        </ul>
      )}
      <AddServerForm />
    </div>
  );
}

function Switch(
  { checked, label, pending, onToggle }: {
    checked: boolean;
    label: string;
    pending: boolean;
    onToggle: () => void;
  },
) {
  return (
    <button
      type="button"
      role="switch"
      class="switch"
      aria-checked={checked}
      aria-label={label}
      aria-disabled={pending}
      onClick={() => pending || onToggle()}
    >
      <span class="switch-track" aria-hidden="true">
        <span class="switch-thumb" />
      </span>
      <span class="switch-text">{checked ? t("mcp.on") : t("mcp.off")}</span>
    </button>
  );
}

function ServerCard({ server, pending }: { server: McpServer; pending: ReadonlySet<string> }) {
  const confirming = useSignal(false);
  const busy = pending.has(server.name);
  const secretNames = [...server.envNames, ...server.headerNames];
  const where = server.transport === "stdio"
    ? [server.command ?? "", ...server.args].join(" ")
    : server.url ?? "";
  return (
    <li class="mcp-card" data-server={server.name} data-state={server.state}>
      <header>
        <div class="mcp-heading">
          <span class="mcp-name">{server.name}</span>
          <span class={`mcp-state mcp-state-${server.state}`}>
            {t(`mcp.state.${server.state}`)}
          </span>
          {server.state === "ready" && (
            <span class="muted mcp-count">{t("mcp.toolCount", { count: server.toolCount })}</span>
          )}
        </div>
        <Switch
          checked={server.enabled}
          label={t("mcp.toggle", { name: server.name })}
          pending={busy}
          onToggle={() => void setMcpServerEnabled(server.name, !server.enabled)}
        />
      </header>
      <p class="mcp-where">
        <span class="mcp-transport">{t(`mcp.transport.${server.transport}`)}</span>{" "}
        <code>{where}</code>
      </p>
      {server.message && server.state === "failed" && (
        <p class="mcp-message" role="status">{server.message}</p>
      )}
      {secretNames.length > 0 && (
        <p class="muted mcp-secrets">{t("mcp.secretNames", { names: secretNames.join(", ") })}</p>
      )}
      {server.restarts > 0 && (
        <p class="muted mcp-secrets">{t("mcp.restarts", { count: server.restarts })}</p>
      )}
      {server.tools.length > 0 && (
        <details class="mcp-tools">
          <summary>{t("mcp.tools", { count: server.tools.length })}</summary>
          <ul>
            {server.tools.map((tool) => (
              <li key={tool.name} class="mcp-tool">
                <div class="mcp-tool-text">
                  <code class="mcp-tool-name">{tool.name}</code>
                  {tool.readOnly && <span class="mcp-badge">{t("mcp.readOnly")}</span>}
                  {tool.destructive && <span class="mcp-badge danger">{t("mcp.destructive")}</span>}
                  {tool.description && <p class="muted">{tool.description}</p>}
                  <ToolRuleChoice server={server.name} tool={tool.name} />
                </div>
                <Switch
                  checked={tool.enabled}
                  label={t("mcp.toolToggle", { name: tool.name })}
                  pending={pending.has(`${server.name}/${tool.name}`)}
                  onToggle={() => void setMcpToolEnabled(server.name, tool.name, !tool.enabled)}
                />
              </li>
            ))}
          </ul>
        </details>
      )}
      <details class="mcp-log">
        <summary>{t("mcp.log")}</summary>
        {server.logTail.length > 0
          ? <pre>{server.logTail.join("\n")}</pre>
          : <p class="muted">{t("mcp.logEmpty")}</p>}
        <code class="muted mcp-log-path">{server.logPath}</code>
      </details>
      {confirming.value
        ? (
          <div class="settings-confirm" role="group" aria-label={t("mcp.remove")}>
            <span>{t("mcp.removeConfirm", { name: server.name })}</span>
            <button
              type="button"
              class="danger"
              onClick={() => void removeMcpServer(server.name).then(() => confirming.value = false)}
            >
              {t("mcp.remove")}
            </button>
            <button type="button" autofocus onClick={() => (confirming.value = false)}>
              {t("settings.cancel")}
            </button>
          </div>
        )
        : (
          <div class="settings-buttons">
            <button
              type="button"
              class="mcp-restart"
              aria-disabled={busy || !server.enabled}
              onClick={() => busy || !server.enabled || void restartMcpServer(server.name)}
            >
              {t("mcp.restart")}
            </button>
            <button type="button" onClick={() => (confirming.value = true)}>
              {t("mcp.remove")}
            </button>
          </div>
        )}
    </li>
  );
}

const RULE_CHOICES = ["allow", "ask", "deny"] as const;

/**
 * One tool's quick permission: three buttons, the one its own rule has pressed; nothing
 * until the rules are read, and nothing for a name a rule cannot hold.
 */
function ToolRuleChoice({ server, tool }: { server: string; tool: string }) {
  const permissions = permissionSettings.value;
  if (permissions.settings === null || mcpRuleTool(server, tool) === null) return null;
  const current = mcpToolRuleDecision(permissions.settings.rules, server, tool);
  const hint = `mcp-rule-hint-${server}-${tool}`;
  return (
    <div class="mcp-rule">
      <div
        class="mcp-rule-choices"
        role="group"
        aria-label={t("mcp.rule.label", { name: tool })}
        aria-describedby={hint}
      >
        {RULE_CHOICES.map((decision) => (
          <button
            key={decision}
            type="button"
            class={`mcp-rule-choice decision-${decision}`}
            data-decision={decision}
            aria-pressed={current === decision}
            aria-disabled={permissions.saving}
            onClick={() => permissions.saving || void applyMcpToolChoice(server, tool, decision)}
          >
            {t(`mcp.rule.${decision}`)}
          </button>
        ))}
      </div>
      <small class="muted" id={hint}>
        {current === null ? t("mcp.rule.none") : t("mcp.rule.set")}
      </small>
    </div>
  );
}

function AddServerForm() {
  const form = useSignal<McpForm>(emptyMcpForm());
  const saving = useSignal(false);
  const failure = useSignal<CallFailure | null>(null);
  const edit = (change: Partial<McpForm>) => (form.value = { ...form.value, ...change });
  const stdio = form.value.transport === "stdio";
  const save = async (event: Event) => {
    event.preventDefault();
    if (saving.value) return;
    saving.value = true;
    failure.value = await addMcpServer(form.value);
    saving.value = false;
    if (failure.value === null) form.value = emptyMcpForm();
  };
  const text = (id: string, label: string, value: string, set: (v: string) => void) => (
    <div class="settings-field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="text"
        autocomplete="off"
        spellcheck={false}
        value={value}
        onInput={(event) => set(event.currentTarget.value)}
      />
    </div>
  );
  return (
    <form class="provider-form mcp-form" aria-label={t("mcp.add.title")} onSubmit={save} noValidate>
      <h4>{t("mcp.add.title")}</h4>
      <div class="settings-field">
        <label for="mcp-name">{t("mcp.add.name")}</label>
        <input
          id="mcp-name"
          type="text"
          autocomplete="off"
          spellcheck={false}
          aria-describedby="mcp-name-hint"
          value={form.value.name}
          onInput={(event) =>
            edit({ name: event.currentTarget.value })}
        />
        <small id="mcp-name-hint" class="muted">{t("mcp.add.nameHint")}</small>
      </div>
      <fieldset class="mcp-transport-choice">
        <legend>{t("mcp.add.transport")}</legend>
        {(["stdio", "http"] as const).map((transport) => (
          <label key={transport}>
            <input
              type="radio"
              name="mcp-transport"
              value={transport}
              checked={form.value.transport === transport}
              onChange={() => edit({ transport })}
            />{" "}
            {t(`mcp.transport.${transport}`)}
          </label>
        ))}
      </fieldset>
      {stdio
        ? (
          <>
            {text(
              "mcp-command",
              t("mcp.add.command"),
              form.value.command,
              (command) => edit({ command }),
            )}
            <div class="settings-field">
              <label for="mcp-args">{t("mcp.add.args")}</label>
              <textarea
                id="mcp-args"
                rows={3}
                spellcheck={false}
                value={form.value.args}
                onInput={(event) =>
                  edit({ args: event.currentTarget.value })}
              />
            </div>
          </>
        )
        : text("mcp-url", t("mcp.add.url"), form.value.url, (url) =>
          edit({ url }))}
      <fieldset class="mcp-secret-rows">
        <legend>{stdio ? t("mcp.add.env") : t("mcp.add.headers")}</legend>
        <small class="muted">{t("mcp.add.secretHint")}</small>
        {form.value.secrets.map((row, index) => (
          <div class="mcp-secret-row" key={index}>
            <input
              type="text"
              autocomplete="off"
              spellcheck={false}
              aria-label={t("mcp.add.rowName")}
              placeholder={t("mcp.add.rowName")}
              value={row.name}
              onInput={(event) => {
                const secrets = [...form.value.secrets];
                secrets[index] = { ...row, name: event.currentTarget.value };
                edit({ secrets });
              }}
            />
            <input
              type="password"
              autocomplete="new-password"
              aria-label={t("mcp.add.rowValue")}
              placeholder={t("mcp.add.rowValue")}
              value={row.value}
              onInput={(event) => {
                const secrets = [...form.value.secrets];
                secrets[index] = { ...row, value: event.currentTarget.value };
                edit({ secrets });
              }}
            />
            <button
              type="button"
              aria-label={t("mcp.add.removeRow")}
              title={t("mcp.add.removeRow")}
              onClick={() =>
                edit({ secrets: form.value.secrets.filter((_, i) => i !== index) })}
            >
              ×
            </button>
          </div>
        ))}
        <div>
          <button
            type="button"
            class="mcp-add-row"
            onClick={() => edit({ secrets: [...form.value.secrets, { name: "", value: "" }] })}
          >
            {t("mcp.add.addRow")}
          </button>
        </div>
      </fieldset>
      {failure.value && <FailureLine failure={failure.value} />}
      <div class="settings-buttons">
        <button type="submit" class="primary" aria-disabled={saving.value}>
          {saving.value ? t("mcp.add.saving") : t("mcp.add.submit")}
        </button>
      </div>
    </form>
  );
}

import { useEffect } from "preact/hooks";
import { useSignal } from "@preact/signals";
import {
  type ChannelForm,
  channelForm,
  channelsView,
  configureParams,
  loadChannels,
  resetChannelBinding,
  saveChannel,
  testChannel,
} from "../../state/channels.ts";
import { onJournalEvent } from "../../state/store.ts";
import { t } from "../../i18n/i18n.ts";
import { explainReason } from "../../i18n/reasons.ts";
import { FailureLine } from "./FailureLine.tsx";
import "./data_sections.css";
import "./mcp.css";
import "./channels.css";

/**
 * Settings → Channels: the Telegram bot. Its state (with the reason when it failed), the
 * bound owner with Reset, the last delivery failure, Test; and a form: enable, the bot
 * token (masked, never shown back: empty keeps it), the model its turns use, the agent
 * profile its threads are bound to, and the optional Bot API URL and proxy. Read when mounted and on every `channel.status_changed`.
 */
export function ChannelsSection() {
  useEffect(() => {
    void loadChannels();
    return onJournalEvent((event) => {
      if (event.type === "channel.status_changed") void loadChannels();
    });
  }, []);
  const view = channelsView.value;
  const status = view.telegram;
  return (
    <div class="data-section channels-section" aria-busy={view.status === "loading"}>
      <header class="section-header">
        <h3>{t("channels.title")}</h3>
      </header>
      <p class="muted">{t("channels.intro")}</p>
      {view.error && <FailureLine failure={view.error} />}
      {status && status.configured && (
        <div class="mcp-card channel-card" data-state={status.state}>
          <header>
            <div class="mcp-heading">
              <span class="mcp-name">
                {status.bot ? `@${status.bot.username}` : t("channels.telegram")}
              </span>
              <span
                class={`mcp-state mcp-state-${stateClass(status.state)}`}
                data-testid="channel-state"
              >
                {t(`channels.state.${status.state}`)}
              </span>
            </div>
            <button
              type="button"
              aria-disabled={view.pending}
              onClick={() => view.pending || void testChannel()}
            >
              {t("channels.test")}
            </button>
          </header>
          {status.reasonCode && (
            <p class="mcp-message" role="status">{explainReason("error", status.reasonCode)}</p>
          )}
          {status.lastError && status.state !== "running" && (
            <p class="muted channel-detail">{status.lastError}</p>
          )}
          <p class="channel-owner" data-testid="channel-owner">
            {status.owner
              ? t("channels.owner", {
                name: status.owner.username ? `@${status.owner.username}` : status.owner.userId,
              })
              : t("channels.noOwner")}
            {status.owner && (
              <button
                type="button"
                aria-disabled={view.pending}
                onClick={() => view.pending || void resetChannelBinding()}
              >
                {t("channels.reset")}
              </button>
            )}
          </p>
          {status.pendingReplies > 0 && (
            <p class="muted">{t("channels.pending", { count: status.pendingReplies })}</p>
          )}
          {status.lastFailure && (
            <p class="muted">{t("channels.lastFailure", { code: status.lastFailure.code })}</p>
          )}
          {view.test && (
            <p class="channel-test" role="status" data-ok={view.test.ok}>
              {view.test.ok
                ? t(view.test.sentToOwner ? "channels.testSent" : "channels.testOk", {
                  bot: view.test.bot?.username ?? "",
                })
                : explainReason("error", view.test.reasonCode ?? "telegram_unreachable")}
            </p>
          )}
        </div>
      )}
      {(view.status === "ready" || status !== null) && (
        <ChannelFormView key={status?.tokenHint ?? "new"} />
      )}
    </div>
  );
}

function stateClass(state: string): string {
  return state === "running" ? "ready" : state === "failed" ? "failed" : "disabled";
}

function ChannelFormView() {
  const view = channelsView.value;
  const form = useSignal<ChannelForm>(channelForm(view.telegram, view.models));
  const missing = useSignal(false);
  const edit = (change: Partial<ChannelForm>) => (form.value = { ...form.value, ...change });
  const save = async (event: Event) => {
    event.preventDefault();
    // The select shows the first model until another is picked.
    const built = configureParams({
      ...form.value,
      model: form.value.model || view.models[0] || "",
    });
    missing.value = "missing" in built;
    if ("params" in built && await saveChannel(built.params)) edit({ token: "" });
  };
  const tokenSet = view.telegram?.tokenSet ?? false;
  const models = form.value.model && !view.models.includes(form.value.model)
    ? [form.value.model, ...view.models]
    : view.models;
  // A profile removed since stays selectable, so saving does not silently drop it.
  const agents = form.value.agentId && !view.agents.some((a) => a.id === form.value.agentId)
    ? [{ id: form.value.agentId, name: form.value.agentId }, ...view.agents]
    : view.agents;
  return (
    <form
      class="provider-form channel-form"
      aria-label={t("channels.form")}
      onSubmit={save}
      noValidate
    >
      <label class="channel-enable">
        <input
          type="checkbox"
          checked={form.value.enabled}
          onChange={(event) => edit({ enabled: event.currentTarget.checked })}
        />{" "}
        {t("channels.enabled")}
      </label>
      <div class="settings-field">
        <label for="channel-token">{t("channels.token")}</label>
        <input
          id="channel-token"
          type="password"
          autocomplete="off"
          spellcheck={false}
          placeholder={tokenSet ? `${view.telegram?.tokenHint ?? ""}••••••••` : "123456:ABC…"}
          aria-describedby="channel-token-hint"
          value={form.value.token}
          onInput={(event) => edit({ token: event.currentTarget.value })}
        />
        <small id="channel-token-hint" class="muted">
          {tokenSet ? t("channels.tokenKeep") : t("channels.tokenHint")}
        </small>
      </div>
      <div class="settings-field">
        <label for="channel-model">{t("channels.model")}</label>
        <select
          id="channel-model"
          value={form.value.model}
          aria-invalid={missing.value}
          onChange={(event) => edit({ model: event.currentTarget.value })}
        >
          {models.length === 0 && <option value="">{t("channels.noModels")}</option>}
          {models.map((model) => <option key={model} value={model}>{model}</option>)}
        </select>
        {missing.value && (
          <small class="settings-error" role="alert">{t("channels.modelMissing")}</small>
        )}
      </div>
      <div class="settings-field">
        <label for="channel-agent">{t("channels.agent")}</label>
        <select
          id="channel-agent"
          value={form.value.agentId}
          aria-describedby="channel-agent-hint"
          onChange={(event) => edit({ agentId: event.currentTarget.value })}
        >
          <option value="">{t("channels.agentDefault")}</option>
          {agents.map((agent) => (
            <option key={agent.id} value={agent.id}>{agent.name} ({agent.id})</option>
          ))}
        </select>
        <small id="channel-agent-hint" class="muted">{t("channels.agentHint")}</small>
      </div>
      <details class="channel-advanced" open={form.value.apiBaseUrl !== "" || undefined}>
        <summary>{t("channels.advanced")}</summary>
        <div class="settings-field">
          <label for="channel-api">{t("channels.apiBaseUrl")}</label>
          <input
            id="channel-api"
            type="url"
            autocomplete="off"
            spellcheck={false}
            placeholder="https://api.telegram.org"
            value={form.value.apiBaseUrl}
            onInput={(event) => edit({ apiBaseUrl: event.currentTarget.value })}
          />
        </div>
        <div class="settings-field">
          <label for="channel-proxy">{t("channels.proxy")}</label>
          <input
            id="channel-proxy"
            type="password"
            autocomplete="off"
            spellcheck={false}
            placeholder={view.telegram?.proxySet ? "••••••••" : "http://127.0.0.1:7890"}
            value={form.value.proxy}
            onInput={(event) => edit({ proxy: event.currentTarget.value })}
          />
        </div>
      </details>
      <div class="settings-buttons">
        <button type="submit" class="primary" aria-disabled={view.pending}>
          {view.pending ? t("channels.saving") : t("channels.save")}
        </button>
      </div>
    </form>
  );
}

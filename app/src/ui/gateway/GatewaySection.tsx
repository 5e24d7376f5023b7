import { useEffect, useState } from "preact/hooks";
import type { GatewayKey } from "@daedalus/client";
import { gatewayKeysView, loadGatewayKeys, revokeGatewayKey } from "../../state/gateway_keys.ts";
import { allModels, loadProviders } from "../../state/providers.ts";
import { loadMcp, mcpView } from "../../state/mcp_servers.ts";
import { toolChoices } from "../../state/gateway_form.ts";
import { locale, t } from "../../i18n/i18n.ts";
import type { MessageKey } from "../../i18n/en.ts";
import { FailureLine } from "../settings/FailureLine.tsx";
import { GatewayKeyForm } from "./GatewayKeyForm.tsx";
import { CreatedKeyPanel } from "./CreatedKeyPanel.tsx";
import { GatewaySnippets } from "./GatewaySnippets.tsx";
import "../settings/data_sections.css";
import "./gateway.css";

function when(timestamp: string): string {
  return new Date(timestamp).toLocaleString(locale.value, {
    dateStyle: "medium",
    timeStyle: "short",
  });
}

function toolsText(tools: readonly string[] | undefined): string {
  if (tools === undefined) return t("gateway.toolsAll");
  return tools.length === 0 ? t("gateway.toolsNone") : tools.join(", ");
}

function KeyRow(props: { gatewayKey: GatewayKey; revoking: boolean }) {
  const { gatewayKey: key, revoking } = props;
  const [confirming, setConfirming] = useState(false);
  const { profile } = key;
  const revoked = key.revokedAt !== null;
  const facts: Array<[MessageKey, string, boolean]> = [
    ["gateway.hint", `${key.hint}…`, true],
    ["gateway.model", `${profile.providerId} / ${profile.modelId}`, false],
    ["gateway.permission", t(`permissions.preset.${profile.permission}` as MessageKey), false],
    ["gateway.workspace", profile.workspace ?? t("gateway.workspaceManaged"), !!profile.workspace],
    ["gateway.tools", toolsText(profile.tools), (profile.tools?.length ?? 0) > 0],
    [
      "gateway.origins",
      profile.allowedOrigins?.join(", ") ?? t("gateway.originsNone"),
      !!profile.allowedOrigins,
    ],
    ["gateway.created", when(key.createdAt), false],
    ["gateway.lastUsed", key.lastUsedAt ? when(key.lastUsedAt) : t("gateway.never"), false],
  ];
  return (
    <li class={revoked ? "gateway-key revoked" : "gateway-key"} data-key-id={key.keyId}>
      <div class="gateway-key-head">
        <span class="gateway-key-name">{key.name}</span>
        <span class={revoked ? "gateway-state revoked" : "gateway-state"}>
          {revoked ? t("gateway.revokedOn", { date: when(key.revokedAt!) }) : t("gateway.active")}
        </span>
      </div>
      <dl class="gateway-facts">
        {facts.map(([label, value, code]) => (
          <div key={label}>
            <dt>{t(label)}</dt>
            <dd>{code ? <code>{value}</code> : value}</dd>
          </div>
        ))}
      </dl>
      {!revoked && (
        <details class="gateway-examples">
          <summary aria-label={t("gateway.examplesLabel", { name: key.name })}>
            {t("gateway.examples")}
          </summary>
          <p class="muted">{t("gateway.examplesNote")}</p>
          <GatewaySnippets keyText={null} />
        </details>
      )}
      {!revoked && !confirming && (
        <div class="gateway-key-actions">
          <button
            type="button"
            class="danger"
            aria-label={t("gateway.revokeLabel", { name: key.name })}
            onClick={() => setConfirming(true)}
          >
            {t("gateway.revoke")}
          </button>
        </div>
      )}
      {!revoked && confirming && (
        <div
          class="gateway-confirm"
          role="group"
          aria-label={t("gateway.revokeLabel", { name: key.name })}
        >
          <p>{t("gateway.revokeConfirm", { name: key.name })}</p>
          <div class="gateway-key-actions">
            <button
              type="button"
              class="danger"
              autofocus
              aria-disabled={revoking}
              onClick={() => revoking || void revokeGatewayKey(key.keyId)}
            >
              {t("gateway.revokeYes")}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t("gateway.revokeNo")}
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

/**
 * Settings › Gateway: the key just made shown once with its examples, the app keys
 * (revoked ones too, greyed) with each one's examples and revoke, and the form for a new key.
 * Loads the keys, the configured models and the MCP servers' tools when mounted.
 */
export function GatewaySection() {
  useEffect(() => {
    void loadGatewayKeys();
    void loadProviders();
    void loadMcp();
  }, []);
  const view = gatewayKeysView.value;
  const loading = view.status === "loading";
  const firstLoad = (view.status === "idle" || loading) && view.keys.length === 0;
  return (
    <div class="data-section gateway-section" aria-busy={loading}>
      <header class="section-header">
        <h3>{t("gateway.title")}</h3>
        <button
          type="button"
          aria-disabled={loading}
          onClick={() => loading || void loadGatewayKeys()}
        >
          {t("gateway.refresh")}
        </button>
      </header>
      <p class="muted">{t("gateway.intro")}</p>
      {view.error && <FailureLine failure={view.error} />}
      {view.created && <CreatedKeyPanel created={view.created} />}
      {firstLoad && <p class="muted">{t("gateway.loading")}</p>}
      {view.status === "ready" && view.keys.length === 0 && <p class="muted">{t("gateway.none")}
      </p>}
      {view.keys.length > 0 && (
        <ul class="gateway-keys" aria-label={t("gateway.listLabel")}>
          {view.keys.map((key) => (
            <KeyRow key={key.keyId} gatewayKey={key} revoking={view.revoking.has(key.keyId)} />
          ))}
        </ul>
      )}
      <GatewayKeyForm
        models={allModels.value}
        toolChoices={toolChoices(mcpView.value.servers)}
      />
    </div>
  );
}

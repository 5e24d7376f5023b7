import type { Item } from "@daedalus/client";
import { conversation } from "../state/store.ts";
import { type MessageKey, t } from "../i18n/i18n.ts";

function statusLabel(status: string): string {
  const key = `status.${status}`;
  return key in STATUS_KEYS ? t(key as MessageKey) : status;
}

const STATUS_KEYS: Record<string, true> = {
  "status.streaming": true,
  "status.running": true,
  "status.completed": true,
  "status.failed": true,
  "status.cancelled": true,
  "status.queued": true,
};

function ItemView(props: { item: Item }) {
  const { item } = props;
  if (item.kind === "tool_call" || item.kind === "tool_result") {
    const toolId = typeof item.data.toolId === "string" ? item.data.toolId : "?";
    return (
      <div class={`tool-card status-${item.status}`}>
        <span class="tool-id">
          {item.kind === "tool_call" ? t("item.toolCall") : t("item.tool")}
        </span>
        <code>{toolId}</code>
        <span class="status">{statusLabel(item.status)}</span>
      </div>
    );
  }
  const who = item.role === "user" ? t("item.user") : t("item.assistant");
  // Text is rendered as text: Preact escapes it, so no markup from the model runs.
  return (
    <article class={`message role-${item.role ?? "assistant"}`}>
      <header>{who}</header>
      <p class="text">{item.content}</p>
      {item.status === "streaming" && <span class="cursor" aria-hidden="true">▍</span>}
    </article>
  );
}

/** The open thread's turns, runs and items. */
export function Conversation() {
  const state = conversation.value;
  if (!state) return <section class="conversation empty">{t("conversation.none")}</section>;
  if (state.snapshotSeq === null) {
    return <section class="conversation empty">{t("conversation.loading")}</section>;
  }
  if (state.turns.length === 0) {
    return <section class="conversation empty">{t("conversation.empty")}</section>;
  }
  return (
    <section class="conversation" aria-label={t("conversation.label")} aria-live="polite">
      {state.turns.map((turn) =>
        turn.runs.map((run) => (
          <div class="run" key={run.id}>
            {run.items.map((item) => <ItemView key={item.id} item={item} />)}
            {run.status !== "completed" && (
              <div class={`run-status status-${run.status}`}>
                {statusLabel(run.status)}
                {run.reasonCode ? ` · ${run.reasonCode}` : ""}
              </div>
            )}
          </div>
        ))
      )}
    </section>
  );
}

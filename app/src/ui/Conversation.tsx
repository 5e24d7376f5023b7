import type { Item } from "@daedalus/client";
import { conversation } from "../state/store.ts";
import type { RunView } from "../state/projection.ts";
import { t } from "../i18n/i18n.ts";
import { Markdown } from "./markdown/Markdown.tsx";
import { ToolCard } from "./tools/ToolCard.tsx";
import { RunOutcome } from "./run/RunOutcome.tsx";
import { RunProgress } from "./run/RunProgress.tsx";
import { MessageAttachments } from "./attachments/MessageAttachments.tsx";

function ItemView(props: { item: Item }) {
  const { item } = props;
  if (item.kind === "tool_call" || item.kind === "tool_result") return <ToolCard item={item} />;
  const who = item.role === "user" ? t("item.user") : t("item.assistant");
  return (
    <article class={`message role-${item.role ?? "assistant"}`}>
      <header>{who}</header>
      {item.role === "user"
        // the user's own text stays plain text
        ? <p class="text">{item.content}</p>
        // assistant Markdown becomes vnodes; raw HTML in it stays text
        : <Markdown text={item.content} />}
      {item.role === "user" && <MessageAttachments data={item.data} />}
      {item.status === "streaming" && <span class="cursor" aria-hidden="true">▍</span>}
    </article>
  );
}

function RunBlock(props: { run: RunView }) {
  const { run } = props;
  const active = run.status === "queued" || run.status === "running";
  return (
    <div class="run">
      {run.items.map((item) => <ItemView key={item.id} item={item} />)}
      {active ? <RunProgress run={run} /> : <RunOutcome run={run} />}
    </div>
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
      {state.turns.map((turn) => turn.runs.map((run) => <RunBlock key={run.id} run={run} />))}
    </section>
  );
}

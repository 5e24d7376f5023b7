import type { Item } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";
import { statusLabel } from "../status_label.ts";
import { openDiff } from "../../state/store.ts";
import { ProcessControls } from "./ProcessControls.tsx";
import { toolCallFacts, type ToolFact, toolResultFacts } from "./tool_facts.ts";

function Facts(props: { facts: readonly ToolFact[] }) {
  if (props.facts.length === 0) return null;
  return (
    <dl class="tool-facts">
      {props.facts.map((fact) => (
        <div key={fact.label}>
          <dt>{t(fact.label)}</dt>
          <dd>{fact.code ? <code>{fact.value}</code> : fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Tools whose calls record a before/after copy (`file.change.get`). */
const CHANGING_TOOLS = new Set(["write", "edit"]);

/** A tool call or result: tool id, status and the tool's bounded metadata. */
export function ToolCard(props: { item: Item }) {
  const { item } = props;
  const toolId = typeof item.data.toolId === "string" ? item.data.toolId : "?";
  const facts = item.kind === "tool_call"
    ? toolCallFacts(toolId, item.data.arguments)
    : toolResultFacts(toolId, item.data);
  return (
    <section
      class={`tool-card status-${item.status}`}
      aria-label={t("tool.card", { tool: toolId })}
    >
      <header>
        <span class="tool-id">
          {item.kind === "tool_call" ? t("item.toolCall") : t("item.tool")}
        </span>
        <code>{toolId}</code>
        <span class="status">{statusLabel(item.status)}</span>
      </header>
      <Facts facts={facts} />
      {item.kind === "tool_result" && toolId.startsWith("process_") &&
        typeof item.data.processId === "string" && (
        <ProcessControls
          processId={item.data.processId}
          state={typeof item.data.state === "string" ? item.data.state : null}
        />
      )}
      {item.kind === "tool_call" && CHANGING_TOOLS.has(toolId) && item.status === "completed" && (
        <button type="button" class="diff-button" onClick={() => (openDiff.value = item.id)}>
          {t("tool.diff")}
        </button>
      )}
    </section>
  );
}

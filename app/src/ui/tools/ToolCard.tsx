import { mcpToolParts } from "../../state/mcp_servers.ts";
import { toolProgress } from "../../state/tool_progress.ts";
import type { Item } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";
import { approvalOfItem } from "../../state/approvals.ts";
import { approvals } from "../../state/approval_store.ts";
import { toolCardStatus } from "./tool_status.ts";
import { openDiff } from "../../state/store.ts";
import { revertTurnId } from "../../state/turn_revert.ts";
import { openFilePreview } from "../../state/file_panel.ts";
import { ProcessControls } from "./ProcessControls.tsx";
import { processBadges, toolCallFacts, type ToolFact, toolResultFacts } from "./tool_facts.ts";
import { toolErrorOf } from "./tool_error.ts";

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

/** A failed result's message on its card, with its code under Details. */
function ToolErrorNote(props: { item: Item }) {
  const error = toolErrorOf(props.item);
  if (!error || error.message === "") return null;
  return (
    <div class="tool-error">
      <p>{error.message}</p>
      {error.code && (
        <details>
          <summary>{t("tool.errorDetails")}</summary>
          <code>{error.code}</code>
        </details>
      )}
    </div>
  );
}

/** Tools whose calls record a before/after copy (`file.change.get`). */
const CHANGING_TOOLS = new Set(["write", "edit"]);
/** Tools whose calls name one file the panel can preview (`file.preview`). */
const ONE_FILE_TOOLS = new Set(["read", "write", "edit"]);

function previewPath(toolId: string, item: Item): string | null {
  if (item.kind !== "tool_call" || !ONE_FILE_TOOLS.has(toolId)) return null;
  const args = item.data.arguments;
  if (args === null || typeof args !== "object" || Array.isArray(args)) return null;
  const path = (args as Record<string, unknown>).path;
  return typeof path === "string" && path !== "" ? path : null;
}

/**
 * A tool call or result: tool id, status ("waiting for approval" while its approval is
 * pending) and the tool's bounded metadata.
 */
export function ToolCard(props: { item: Item }) {
  const { item } = props;
  const toolId = typeof item.data.toolId === "string" ? item.data.toolId : "?";
  const facts = item.kind === "tool_call"
    ? toolCallFacts(toolId, item.data.arguments)
    : toolResultFacts(toolId, item.data);
  const path = previewPath(toolId, item);
  // Reading the approvals here re-renders the card when its approval is asked or answered.
  const status = toolCardStatus(
    item,
    item.kind === "tool_call" ? approvalOfItem(approvals.value, item.id) : null,
  );
  return (
    <section
      class={`tool-card status-${status.name}`}
      aria-label={t("tool.card", { tool: toolId })}
    >
      <header>
        <span class="tool-id">
          {item.kind === "tool_call" ? t("item.toolCall") : t("item.tool")}
        </span>
        <code>{toolId}</code>
        {mcpServerOf(toolId) !== null && (
          <span class="badge">{t("tool.mcpServer", { server: mcpServerOf(toolId)! })}</span>
        )}
        {item.kind === "tool_call" &&
          processBadges(toolId, item.data.arguments).map((badge) => (
            <span key={badge} class="badge">{t(badge)}</span>
          ))}
        <span class="status">{status.label}</span>
      </header>
      <Facts facts={facts} />
      {item.kind === "tool_call" && item.status === "running" && <ProgressLine itemId={item.id} />}
      <ToolErrorNote item={item} />
      {item.kind === "tool_result" && toolId.startsWith("process_") &&
        typeof item.data.processId === "string" && (
        <ProcessControls
          processId={item.data.processId}
          state={typeof item.data.state === "string" ? item.data.state : null}
          background={item.data.background === true}
        />
      )}
      {item.kind === "tool_call" && CHANGING_TOOLS.has(toolId) && item.status === "completed" && (
        <button type="button" class="diff-button" onClick={() => (openDiff.value = item.id)}>
          {t("tool.diff")}
        </button>
      )}
      {item.kind === "tool_call" && CHANGING_TOOLS.has(toolId) && item.status === "completed" && (
        <button
          type="button"
          class="revert-button"
          onClick={() => (revertTurnId.value = item.turnId)}
        >
          {t("revert.open")}
        </button>
      )}
      {path !== null && item.status === "completed" && (
        <button
          type="button"
          class="open-file-button"
          aria-label={t("file.openPath", { path })}
          onClick={() => void openFilePreview(path)}
        >
          {t("file.open")}
        </button>
      )}
    </section>
  );
}

/** The MCP server a tool belongs to (its `mcp__<server>__` prefix), or null. */
function mcpServerOf(toolId: string): string | null {
  return mcpToolParts(toolId)?.server ?? null;
}

/** How far a running call got, as its tool last reported (an MCP tool's progress). */
function ProgressLine({ itemId }: { itemId: string }) {
  const report = toolProgress.value.get(itemId);
  if (report === undefined) return null;
  const done = report.total === null
    ? t("tool.progressOpen", { done: report.progress })
    : t("tool.progress", { done: report.progress, total: report.total });
  return (
    <p class="tool-progress" role="status">
      {report.total !== null && report.total > 0 && (
        <progress max={report.total} value={Math.min(report.progress, report.total)} />
      )}
      <span>{report.message ? `${done} · ${report.message}` : done}</span>
    </p>
  );
}

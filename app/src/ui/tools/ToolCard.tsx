import type { Item } from "@daedalus/client";
import { useState } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import { openDiff } from "../../state/store.ts";
import { revertTurnId } from "../../state/turn_revert.ts";
import { openFilePreview } from "../../state/file_panel.ts";
import { ProcessControls } from "./ProcessControls.tsx";
import { processBadges, toolCallFacts, type ToolFact, toolResultFacts } from "./tool_facts.ts";
import { toolErrorOf } from "./tool_error.ts";
import { type ToolCallView, toolIdOf } from "./tool_activity.ts";
import { argumentsText, textPreview } from "./text_preview.ts";

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

/** A failed result's stable code, under Details (its message is on the row). */
function ToolErrorCode(props: { item: Item | null }) {
  const error = props.item ? toolErrorOf(props.item) : null;
  if (!error?.code) return null;
  return (
    <div class="tool-error">
      <details>
        <summary>{t("tool.errorDetails")}</summary>
        <code>{error.code}</code>
      </details>
    </div>
  );
}

/** A long text folded to its first lines, with "Show more" / "Show less". */
function FoldedText(props: { label: string; text: string; empty?: string }) {
  const [unfolded, setUnfolded] = useState(false);
  if (props.text === "" && !props.empty) return null;
  const preview = textPreview(props.text);
  return (
    <div class="tool-text">
      <h4>{props.label}</h4>
      {props.text === ""
        ? <p class="tool-text-empty">{props.empty}</p>
        : <pre>{unfolded ? preview.whole : preview.head}</pre>}
      {preview.hiddenLines > 0 && (
        <button
          type="button"
          class="show-more"
          onClick={() => setUnfolded(!unfolded)}
        >
          {unfolded ? t("tool.showLess") : t("tool.showMore", { count: preview.hiddenLines })}
        </button>
      )}
    </div>
  );
}

/** Tools whose calls record a before/after copy (`file.change.get`). */
const CHANGING_TOOLS = new Set(["write", "edit"]);
/** Tools whose calls name one file the panel can preview (`file.preview`). */
const ONE_FILE_TOOLS = new Set(["read", "write", "edit"]);

function previewPath(toolId: string, call: Item): string | null {
  if (!ONE_FILE_TOOLS.has(toolId)) return null;
  const args = call.data.arguments;
  if (args === null || typeof args !== "object" || Array.isArray(args)) return null;
  const path = (args as Record<string, unknown>).path;
  return typeof path === "string" && path !== "" ? path : null;
}

/** Facts of the call and of its result, without repeating a line both name. */
function mergedFacts(toolId: string, view: ToolCallView): ToolFact[] {
  const facts = view.call ? toolCallFacts(toolId, view.call.data.arguments) : [];
  const seen = new Set(facts.map((fact) => `${fact.label}\n${fact.value}`));
  for (const fact of view.result ? toolResultFacts(toolId, view.result.data) : []) {
    if (!seen.has(`${fact.label}\n${fact.value}`)) facts.push(fact);
  }
  return facts;
}

/**
 * A tool call opened from its row: the tool, its bounded facts, its arguments and output
 * (folded when long), the code of a failure under Details, and what can be done with it —
 * a process's live controls, the diff and undo of a file change, the file's preview.
 */
export function ToolCard(props: { view: ToolCallView }) {
  const { view } = props;
  const { call, result } = view;
  const toolId = toolIdOf(view);
  const path = call ? previewPath(toolId, call) : null;
  const changed = call !== null && CHANGING_TOOLS.has(toolId) && call.status === "completed";
  return (
    <section class="tool-card" aria-label={t("tool.card", { tool: toolId })}>
      <header>
        <code class="tool-id">{toolId}</code>
        {call &&
          processBadges(toolId, call.data.arguments).map((badge) => (
            <span key={badge} class="badge">{t(badge)}</span>
          ))}
      </header>
      <Facts facts={mergedFacts(toolId, view)} />
      {call && <FoldedText label={t("tool.arguments")} text={argumentsText(call.data.arguments)} />}
      {result && (
        <FoldedText label={t("tool.output")} text={result.content} empty={t("tool.outputEmpty")} />
      )}
      <ToolErrorCode item={result} />
      {result && toolId.startsWith("process_") && typeof result.data.processId === "string" && (
        <ProcessControls
          processId={result.data.processId}
          state={typeof result.data.state === "string" ? result.data.state : null}
          background={result.data.background === true}
        />
      )}
      {changed && (
        <button type="button" class="diff-button" onClick={() => (openDiff.value = call.id)}>
          {t("tool.diff")}
        </button>
      )}
      {changed && (
        <button
          type="button"
          class="revert-button"
          onClick={() => (revertTurnId.value = call.turnId)}
        >
          {t("revert.open")}
        </button>
      )}
      {path !== null && call?.status === "completed" && (
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

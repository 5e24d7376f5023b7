/**
 * The bounded metadata a tool card shows, read from a tool item's `data` with the keys
 * the tools return (packages/tools/files/*.ts, the runtime's process tools). Keys the
 * card does not know, and values of the wrong type, are ignored; content is never shown.
 *
 * @module
 */
import { type MessageKey, t } from "../../i18n/i18n.ts";
import { explainReason } from "../../i18n/reasons.ts";

/** One labelled line of a tool card. */
export interface ToolFact {
  label: MessageKey;
  value: string;
  /** Shown as code (paths, ids, commands). */
  code?: boolean;
}

type Data = Readonly<Record<string, unknown>>;

const FILE_TOOLS = new Set(["read", "write", "edit", "list", "grep", "glob"]);
const PROCESS_STATES = new Set(["running", "exited", "terminated", "unknown"]);
const MAX_TEXT = 200;

function num(data: Data, key: string): number | null {
  const value = data[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function str(data: Data, key: string): string | null {
  const value = data[key];
  if (typeof value !== "string" || value === "") return null;
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}

/**
 * The facts of a tool result item.
 *
 * @param toolId the tool's id (`data.toolId`)
 * @param data the item's data
 * @returns the lines to show, in order
 */
export function toolResultFacts(toolId: string, data: Data): ToolFact[] {
  if (FILE_TOOLS.has(toolId)) return fileFacts(data);
  if (toolId.startsWith("process_")) return processFacts(data);
  return [];
}

/**
 * The facts of a tool call item, from its arguments (what the call is about).
 *
 * @param toolId the tool's id
 * @param args the parsed arguments (`data.arguments`)
 * @returns the lines to show
 */
export function toolCallFacts(toolId: string, args: unknown): ToolFact[] {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return [];
  const data = args as Data;
  const facts: ToolFact[] = [];
  const path = str(data, "path");
  const command = str(data, "command");
  const processId = str(data, "processId");
  if (FILE_TOOLS.has(toolId) && path) {
    facts.push({ label: "tool.label.path", value: path, code: true });
  }
  if (toolId === "process_start" && command) {
    facts.push({ label: "tool.label.command", value: command, code: true });
  }
  if (toolId.startsWith("process_") && processId) {
    facts.push({ label: "tool.label.process", value: processId, code: true });
  }
  return facts;
}

/**
 * The badges of a `process_start` call: how the command runs (in the background,
 * in a terminal, supervised), from its arguments.
 *
 * @param toolId the tool's id
 * @param args the parsed arguments (`data.arguments`)
 * @returns the badges' string keys, in a fixed order
 */
export function processBadges(toolId: string, args: unknown): MessageKey[] {
  if (toolId !== "process_start" || args === null || typeof args !== "object") return [];
  const data = args as Data;
  const badges: MessageKey[] = [];
  if (data.background === true) badges.push("process.badge.background");
  if (data.pty === true) badges.push("process.badge.pty");
  if (data.supervise === "always" || data.supervise === "on-failure") {
    badges.push("process.badge.supervised");
  }
  return badges;
}

function fileFacts(data: Data): ToolFact[] {
  const facts: ToolFact[] = [];
  const path = str(data, "path");
  if (path) facts.push({ label: "tool.label.path", value: path, code: true });
  const start = num(data, "lineStart");
  const end = num(data, "lineEnd");
  if (start !== null && end !== null && end >= start) {
    const total = num(data, "totalLines");
    let value = total === null
      ? t("tool.value.lines", { start, end })
      : t("tool.value.linesOf", { start, end, total });
    const next = num(data, "nextOffset");
    if (next !== null) value += ` · ${t("tool.value.nextOffset", { next })}`;
    facts.push({ label: "tool.label.lines", value });
  }
  const bytes = num(data, "totalBytes") ?? num(data, "bytes");
  if (bytes !== null) {
    const created = data.created === true ? ` · ${t("tool.value.created")}` : "";
    facts.push({
      label: "tool.label.size",
      value: t("tool.value.bytes", { count: bytes }) + created,
    });
  }
  const replacements = num(data, "replacements");
  if (replacements !== null) {
    facts.push({ label: "tool.label.replacements", value: String(replacements) });
  }
  const additions = num(data, "additions");
  const deletions = num(data, "deletions");
  if (additions !== null && deletions !== null) {
    facts.push({
      label: "tool.label.changes",
      value: t("tool.value.changes", { additions, deletions }),
    });
  }
  const pattern = str(data, "pattern");
  if (pattern) facts.push({ label: "tool.label.pattern", value: pattern, code: true });
  const count = num(data, "count");
  if (count !== null) facts.push({ label: "tool.label.matches", value: truncated(data, count) });
  const entries = num(data, "total");
  if (entries !== null) {
    facts.push({ label: "tool.label.entries", value: truncated(data, entries) });
  }
  return facts;
}

function truncated(data: Data, count: number): string {
  return data.truncated === true ? `${count} · ${t("tool.value.truncated")}` : String(count);
}

function processFacts(data: Data): ToolFact[] {
  const facts: ToolFact[] = [];
  const processId = str(data, "processId");
  if (processId) facts.push({ label: "tool.label.process", value: processId, code: true });
  const state = str(data, "state");
  if (state && PROCESS_STATES.has(state)) {
    facts.push({ label: "tool.label.state", value: t(`process.state.${state}` as MessageKey) });
  }
  const exitCode = num(data, "exitCode");
  if (exitCode !== null) facts.push({ label: "tool.label.exitCode", value: String(exitCode) });
  const cwd = str(data, "cwd");
  if (cwd) facts.push({ label: "tool.label.cwd", value: cwd, code: true });
  const errorCode = str(data, "errorCode");
  if (errorCode) {
    facts.push({
      label: "tool.label.error",
      value: `${explainReason("process", errorCode)} (${errorCode})`,
    });
  }
  return facts;
}

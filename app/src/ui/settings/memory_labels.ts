/**
 * How the Memory section names kinds, scopes, sources and times in the current locale.
 *
 * @module
 */
import type { MemoryKind, MemoryProvenance, MemoryScope } from "@daedalus/client";
import { locale, type MessageKey, t } from "../../i18n/i18n.ts";

/** Characters of a workspace key shown in labels ("ws:" and the start of its hash). */
const WORKSPACE_KEY_SHOWN_CHARS = 11;

/**
 * Names a memory kind.
 *
 * @param kind a memory kind
 * @returns its name
 */
export function kindLabel(kind: MemoryKind): string {
  return t(`memory.kind.${kind}` as MessageKey);
}

/**
 * Names a memory scope.
 *
 * @param scope a memory scope
 * @returns "Everywhere", or the workspace with the start of its key
 */
export function scopeLabel(scope: MemoryScope): string {
  if (scope.type === "global") return t("memory.scope.global");
  const key = scope.key.length > WORKSPACE_KEY_SHOWN_CHARS
    ? `${scope.key.slice(0, WORKSPACE_KEY_SHOWN_CHARS)}…`
    : scope.key;
  return t("memory.scope.workspace", { key });
}

/**
 * Describes where a memory revision came from.
 *
 * @param kind where a revision came from
 * @returns its description
 */
export function sourceLabel(kind: MemoryProvenance["sourceKind"]): string {
  return t(`memory.source.${kind}` as MessageKey);
}

/**
 * Describes whether a memory's source still exists.
 *
 * @param status whether the source still exists
 * @returns its description
 */
export function sourceStatusLabel(status: MemoryProvenance["status"]): string {
  return t(`memory.sourceStatus.${status}` as MessageKey);
}

/**
 * Writes a timestamp for people.
 *
 * @param timestamp an ISO timestamp
 * @returns the local date and time in the current locale
 */
export function formatWhen(timestamp: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  return new Intl.DateTimeFormat(locale.value, { dateStyle: "medium", timeStyle: "short" })
    .format(date);
}

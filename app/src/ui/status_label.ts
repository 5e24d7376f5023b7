import { type MessageKey, t } from "../i18n/i18n.ts";

const STATUSES = new Set([
  "streaming",
  "running",
  "completed",
  "failed",
  "cancelled",
  "queued",
  "waiting",
]);

/**
 * The localized label of an item or run status; an unknown status is shown as is.
 *
 * @param status the status
 */
export function statusLabel(status: string): string {
  return STATUSES.has(status) ? t(`status.${status}` as MessageKey) : status;
}

/**
 * The status a tool card shows. A tool call whose approval is pending is not running:
 * the Run holds it until the user answers the card under it, so it reads "waiting for
 * approval". Once answered, the item's own status (running, completed, failed) speaks.
 *
 * @module
 */
import type { Approval, Item } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";
import { statusLabel } from "../status_label.ts";

/** What the card's status says and the class it gets. */
export interface ToolCardStatus {
  /** `waiting-approval`, or the item's status. */
  name: string;
  /** The localized label. */
  label: string;
}

/**
 * The status of a tool card.
 *
 * @param item the tool call or result item
 * @param approval the call's latest approval (`approvalOfItem`), or null
 * @returns what the card shows
 */
export function toolCardStatus(item: Item, approval: Approval | null): ToolCardStatus {
  const waiting = item.kind === "tool_call" && approval?.status === "pending" &&
    (item.status === "running" || item.status === "streaming");
  if (waiting) return { name: "waiting-approval", label: t("status.waitingApproval") };
  return { name: item.status, label: statusLabel(item.status) };
}

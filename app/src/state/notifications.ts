/**
 * Web Notifications while the window is in the background: for background commands that
 * finish (one per process; a supervised command's restarts do not add more) and for tool
 * calls that wait for the user's approval (one per approval; a click opens its thread).
 * A click brings the app to the front. Permission is asked only from the user's click on
 * the in-app offer that appears when the first background command starts or the first
 * approval arrives; nothing is shown when the browser denies or lacks notifications.
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { Approval } from "@daedalus/client";
import { onJournalEvent, openThread } from "./store.ts";
import { onApprovalRequested } from "./approval_store.ts";
import { backgroundChange, finishedSummary } from "./process_notices.ts";
import { browserStorage } from "./web_storage.ts";
import { t } from "../i18n/i18n.ts";

/** Whether the offer to enable notifications is shown. */
export const notificationOffer = signal(false);
/** What the offer is about: the first background command or the first approval. */
export const notificationTopic = signal<"process" | "approval">("process");

const DECLINED_KEY = "daedalus.notifications.declined";
const notified = new Set<string>();

function supported(): boolean {
  return typeof Notification === "function";
}

function declined(): boolean {
  return browserStorage()?.getItem(DECLINED_KEY) === "1";
}

/** Starts watching the journal for background commands and approvals. */
export function startNotifications(): void {
  if (!supported()) return;
  onApprovalRequested(notifyApproval);
  onJournalEvent((event) => {
    const change = backgroundChange(event);
    if (!change) return;
    if (change.kind === "started") {
      offer("process");
      return;
    }
    const { processId } = change.process;
    if (notified.has(processId) || Notification.permission !== "granted") return;
    if (inForeground()) return;
    notified.add(processId);
    const summary = finishedSummary(change.process);
    const notification = new Notification(
      t(summary.failed ? "notify.failed" : "notify.finished"),
      {
        body: summary.exitCode !== null
          ? t("notify.exit", { command: summary.command, code: summary.exitCode })
          : t("notify.stopped", { command: summary.command, state: summary.state }),
        tag: processId,
      },
    );
    notification.onclick = () => {
      globalThis.focus();
      notification.close();
    };
  });
}

/** Offers notifications, unless the browser already decided or the user said not now. */
function offer(topic: "process" | "approval"): void {
  if (Notification.permission !== "default" || declined() || notificationOffer.value) return;
  notificationTopic.value = topic;
  notificationOffer.value = true;
}

/** A window the user is looking at shows the card itself; no need to interrupt. */
function inForeground(): boolean {
  return document.visibilityState === "visible" && document.hasFocus();
}

function notifyApproval(approval: Approval): void {
  if (Notification.permission === "default") {
    offer("approval");
    return;
  }
  if (Notification.permission !== "granted" || inForeground()) return;
  if (notified.has(approval.approvalId)) return;
  notified.add(approval.approvalId);
  const notification = new Notification(t("notify.approval"), {
    body: approval.target === null || approval.tool === null
      ? approval.summary
      : t("notify.approvalBody", { tool: approval.tool, target: approval.target }),
    tag: approval.approvalId,
  });
  notification.onclick = () => {
    globalThis.focus();
    void openThread(approval.threadId);
    notification.close();
  };
}

/** Asks for permission (from the offer's button, a user gesture) and hides the offer. */
export async function enableNotifications(): Promise<void> {
  notificationOffer.value = false;
  if (supported()) await Notification.requestPermission();
}

/** Hides the offer and does not show it again in this browser. */
export function declineNotifications(): void {
  notificationOffer.value = false;
  browserStorage()?.setItem(DECLINED_KEY, "1");
}

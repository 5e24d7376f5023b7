/**
 * Web Notifications for background commands that finish while the window is in the
 * background: one per process (a supervised command's restarts do not add more), and a
 * click brings the app to the front. Permission is asked only from the user's click on
 * the in-app offer that appears when the first background command starts.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { onJournalEvent } from "./store.ts";
import { backgroundChange, finishedSummary } from "./process_notices.ts";
import { browserStorage } from "./web_storage.ts";
import { t } from "../i18n/i18n.ts";

/** Whether the offer to enable notifications is shown. */
export const notificationOffer = signal(false);

const DECLINED_KEY = "daedalus.notifications.declined";
const notified = new Set<string>();

function supported(): boolean {
  return typeof Notification === "function";
}

function declined(): boolean {
  return browserStorage()?.getItem(DECLINED_KEY) === "1";
}

/** Starts watching the journal for background commands. */
export function startNotifications(): void {
  if (!supported()) return;
  onJournalEvent((event) => {
    const change = backgroundChange(event);
    if (!change) return;
    if (change.kind === "started") {
      if (Notification.permission === "default" && !declined()) notificationOffer.value = true;
      return;
    }
    const { processId } = change.process;
    if (notified.has(processId) || Notification.permission !== "granted") return;
    // A window the user is looking at shows the card's state; no need to interrupt.
    if (document.visibilityState === "visible" && document.hasFocus()) return;
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

import {
  declineNotifications,
  enableNotifications,
  notificationOffer,
  notificationTopic,
} from "../state/notifications.ts";
import { t } from "../i18n/i18n.ts";

/**
 * The offer to notify while the window is in the background: when background commands
 * finish (shown when the first starts) or when a call waits for approval (the first one).
 */
export function NotificationOffer() {
  if (!notificationOffer.value) return null;
  return (
    <div class="banner banner-notify" role="status" aria-live="polite">
      <span>{t(notificationTopic.value === "approval" ? "notify.askApproval" : "notify.ask")}</span>
      <button type="button" onClick={() => void enableNotifications()}>
        {t("notify.enable")}
      </button>
      <button type="button" onClick={declineNotifications}>{t("notify.notNow")}</button>
    </div>
  );
}

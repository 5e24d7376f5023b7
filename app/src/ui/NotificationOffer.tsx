import {
  declineNotifications,
  enableNotifications,
  notificationOffer,
} from "../state/notifications.ts";
import { t } from "../i18n/i18n.ts";

/** The offer to notify when background commands finish (shown when the first starts). */
export function NotificationOffer() {
  if (!notificationOffer.value) return null;
  return (
    <div class="banner banner-notify" role="status" aria-live="polite">
      <span>{t("notify.ask")}</span>
      <button type="button" onClick={() => void enableNotifications()}>
        {t("notify.enable")}
      </button>
      <button type="button" onClick={declineNotifications}>{t("notify.notNow")}</button>
    </div>
  );
}

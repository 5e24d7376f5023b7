import { retry, shownConnection } from "../state/store.ts";
import { t } from "../i18n/i18n.ts";

/**
 * The connection banner: hidden while connected, "Reconnecting…" while the client tries
 * (it never stops while the page is open), and Retry (try now) and Reload when offline.
 */
export function ConnectionBanner() {
  const state = shownConnection.value;
  if (state === "connected") return null;
  return (
    <div class={`banner banner-${state}`} role="status" aria-live="polite">
      <span>{t(`connection.${state}`)}</span>
      {state === "offline" && (
        <>
          <button type="button" onClick={retry}>{t("connection.retry")}</button>
          <button type="button" onClick={() => location.reload()}>{t("connection.reload")}</button>
        </>
      )}
    </div>
  );
}

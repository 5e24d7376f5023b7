import { connection, retry } from "../state/store.ts";
import { t } from "../i18n/i18n.ts";

/** The connection banner: hidden while connected, with Retry and Reload when offline. */
export function ConnectionBanner() {
  const state = connection.value;
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

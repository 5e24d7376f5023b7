import { applyUpdate, dismissUpdate, updateWaiting } from "../pwa_update.ts";
import { t } from "../i18n/i18n.ts";

/** The update prompt: a new version of the app is ready; reload into it or later. */
export function UpdatePrompt() {
  if (!updateWaiting.value) return null;
  return (
    <div class="banner banner-update" role="status" aria-live="polite">
      <span>{t("update.ready")}</span>
      <button type="button" onClick={applyUpdate}>{t("update.reload")}</button>
      <button type="button" onClick={dismissUpdate}>{t("update.later")}</button>
    </div>
  );
}

import type { RunView } from "../../state/projection.ts";
import { t } from "../../i18n/i18n.ts";
import { explainReason } from "../../i18n/reasons.ts";

/**
 * The outcome block under a settled Run: nothing for a completed Run; for a failed or
 * cancelled one, the localized explanation of its reason code, what the provider said
 * (e.g. "Incorrect API key provided", as the runtime stored it, redacted), the raw
 * code, and "Try again" when the caller offers it (the thread's latest Run).
 */
export function RunOutcome(
  props: {
    run: Pick<RunView, "status" | "reasonCode" | "errorMessage">;
    onSendAgain?: () => void;
  },
) {
  const { status, reasonCode, errorMessage } = props.run;
  if (status !== "failed" && status !== "cancelled") return null;
  return (
    <div
      class={`run-outcome status-${status}`}
      role={status === "failed" ? "alert" : "status"}
      aria-label={t("outcome.label")}
    >
      <strong>{status === "failed" ? t("outcome.failed") : t("outcome.cancelled")}</strong>
      <p>{reasonCode ? explainReason("run", reasonCode) : t("outcome.noReason")}</p>
      {errorMessage && (
        <p class="error-message">
          {t("outcome.details")} <q>{errorMessage}</q>
        </p>
      )}
      {reasonCode && (
        <p class="reason-code">
          {t("outcome.code")} <code>{reasonCode}</code>
        </p>
      )}
      {props.onSendAgain && (
        <button type="button" class="send-again" onClick={props.onSendAgain}>
          {t("outcome.sendAgain")}
        </button>
      )}
    </div>
  );
}

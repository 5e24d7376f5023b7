import type { RunFailureClass } from "@daedalus/client";
import type { RunView } from "../../state/projection.ts";
import type { MessageKey } from "../../i18n/en.ts";
import { t } from "../../i18n/i18n.ts";
import { explainReason } from "../../i18n/reasons.ts";
import { openSettings } from "../../state/settings_nav.ts";

/** The line per failure class: total, so a new class without copy does not compile. */
const CLASS_LINE: Readonly<Record<RunFailureClass, MessageKey>> = {
  retryable: "outcome.class.retryable",
  needs_user: "outcome.class.needs_user",
  unrecoverable: "outcome.class.unrecoverable",
};

/**
 * The outcome block under a settled Run: nothing for a completed Run; for a failed or
 * cancelled one, the localized explanation of its reason code, on a failed one the line
 * of its failure class (try again, act first, or retrying will not help), what the
 * provider said (e.g. "Incorrect API key provided", as the runtime stored it, redacted),
 * the raw code, "See Settings › Health" when an open provider breaker failed it, and "Try
 * again" when the caller offers it (the thread's latest Run).
 */
export function RunOutcome(
  props: {
    run: Pick<RunView, "status" | "reasonCode" | "errorMessage"> & {
      failureClass?: RunView["failureClass"];
    };
    onSendAgain?: () => void;
    /** Offered for the thread's latest Run: continue it where it stopped (`run.resume`). */
    onResume?: () => void;
  },
) {
  const { status, reasonCode, errorMessage, failureClass } = props.run;
  // A class only means something for a failure; a known key only (a newer runtime's
  // class shows no line rather than a raw key).
  const classLine = status === "failed" && failureClass && Object.hasOwn(CLASS_LINE, failureClass)
    ? t(CLASS_LINE[failureClass])
    : null;
  if (status !== "failed" && status !== "cancelled") return null;
  return (
    <div
      class={`run-outcome status-${status}`}
      role={status === "failed" ? "alert" : "status"}
      aria-label={t("outcome.label")}
    >
      <strong>{status === "failed" ? t("outcome.failed") : t("outcome.cancelled")}</strong>
      <p>{reasonCode ? explainReason("run", reasonCode) : t("outcome.noReason")}</p>
      {classLine && <p class={`failure-class class-${failureClass}`}>{classLine}</p>}
      {errorMessage && (
        <p class="error-message">
          {t("outcome.details")} <q>{errorMessage}</q>
        </p>
      )}
      {reasonCode && (
        // The stable code is for reports and searches, not the first thing to read.
        <details class="reason-code">
          <summary>{t("outcome.technical")}</summary>
          {t("outcome.code")} <code>{reasonCode}</code>
        </details>
      )}
      {reasonCode === "provider_circuit_open" && (
        // The breaker's state and when it retries are in Settings › Health.
        <button type="button" class="open-health" onClick={() => openSettings("health")}>
          {t("outcome.openHealth")}
        </button>
      )}
      {props.onResume && (
        <button type="button" class="resume-run" onClick={props.onResume}>
          {t("outcome.resume")}
        </button>
      )}
      {props.onSendAgain && (
        <button type="button" class="send-again" onClick={props.onSendAgain}>
          {t("outcome.sendAgain")}
        </button>
      )}
    </div>
  );
}

import type { CallFailure } from "../../state/call_failure.ts";
import { explainReason, reasonKey } from "../../i18n/reasons.ts";
import { t } from "../../i18n/i18n.ts";

/**
 * A failed call inside a settings section: the reason code explained in the current
 * locale when the tables know it (else the server's message), with the raw code.
 */
export function FailureLine({ failure }: { failure: CallFailure }) {
  const known = failure.code !== null && reasonKey("error", failure.code) !== null;
  return (
    <p role="alert" class="section-failure">
      {known && failure.code ? explainReason("error", failure.code) : t("dataSection.failed")}{" "}
      <span class="muted">{failure.message}</span>
      {failure.code && <code class="failure-code">{failure.code}</code>}
    </p>
  );
}

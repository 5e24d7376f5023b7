import { useEffect, useState } from "preact/hooks";
import type { RunView } from "../../state/projection.ts";
import { formatElapsed, runProgress } from "../../state/run_progress.ts";
import { t } from "../../i18n/i18n.ts";

/** Re-renders every second while mounted; returns the current time. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The progress line of the active Run: "Waiting for your approval" while it waits, model
 * calls, elapsed time (updated each second), compactions and steers.
 */
export function RunProgress(props: { run: RunView }) {
  const now = useNow();
  const p = runProgress(props.run, now);
  return (
    <div class="run-progress" role="group" aria-label={t("progress.label")} aria-live="off">
      {props.run.status === "queued" && p.elapsedMs === null
        ? <span>{t("progress.queued")}</span>
        : (
          <>
            {props.run.status === "waiting" && (
              <span class="progress-waiting">{t("progress.waiting")}</span>
            )}
            <span>{t("progress.modelCalls", { count: p.modelCalls })}</span>
            <span>{t("progress.elapsed", { time: formatElapsed(p.elapsedMs ?? 0) })}</span>
            {p.compactions > 0 && <span>{t("progress.compactions", { count: p.compactions })}
            </span>}
            {p.steers > 0 && <span>{t("progress.steers", { count: p.steers })}</span>}
          </>
        )}
    </div>
  );
}

import { useEffect, useState } from "preact/hooks";
import type { ProcessOutputPage } from "@daedalus/client";
import { readProcess, stopProcess } from "../../state/store.ts";
import { type MessageKey, t } from "../../i18n/i18n.ts";

const KNOWN_STATES = new Set(["running", "exited", "terminated", "unknown"]);

/** The most output the card keeps; older text is dropped from the front. */
export const PROCESS_LOG_MAX_CHARS = 64 * 1024;

/**
 * A managed process's live controls on its tool card: its current state, its output
 * read page by page ("Show output", then "More"), and Stop while it runs. The card's
 * facts are the snapshot from when the tool returned; this shows what is true now.
 */
export function ProcessControls(
  props: { processId: string; state: string | null; background?: boolean },
) {
  const { processId } = props;
  const [page, setPage] = useState<ProcessOutputPage | null>(null);
  const [log, setLog] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [probed, setProbed] = useState<ProcessOutputPage | null>(null);
  useEffect(() => {
    // The tool result is a snapshot; a one-byte read tells the state now (running or not).
    let current = true;
    void readProcess(processId, 0, 1).then((found) => current && setProbed(found));
    return () => {
      current = false;
    };
  }, [processId]);
  const known = page ?? probed;
  const claimed = known?.state ?? props.state;
  // Item data comes from the wire as-is: only known states get a label.
  const state = claimed && KNOWN_STATES.has(claimed) ? claimed : null;
  const take = (next: ProcessOutputPage | null, append: boolean) => {
    if (!next) return;
    setPage(next);
    setLog((previous) => {
      const text = append && previous !== null ? previous + next.output : next.output;
      return text.length > PROCESS_LOG_MAX_CHARS ? text.slice(-PROCESS_LOG_MAX_CHARS) : text;
    });
  };
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  const showOutput = () =>
    run(async () => take(await readProcess(processId, page?.nextCursor ?? 0), log !== null));
  const stop = () =>
    run(async () => {
      const stopped = await stopProcess(processId);
      if (!stopped) return;
      // The final page starts at the stream's start: it becomes the log only when none is
      // shown yet; otherwise only its state (and cursor) is taken.
      if (log === null) take(stopped, false);
      else setPage(stopped);
    });
  return (
    <div class="process-controls">
      {state && (
        <span class={`process-state state-${state}`} role="status">
          {props.background
            ? t(state === "running" ? "process.background.running" : "process.background.ended")
            : t(`process.state.${state}` as MessageKey)}
          {known?.exitCode !== null && known?.exitCode !== undefined &&
            ` · ${t("tool.label.exitCode")} ${known.exitCode}`}
        </span>
      )}
      <button type="button" disabled={busy} onClick={() => void showOutput()}>
        {log === null ? t("process.showOutput") : t("process.more")}
      </button>
      {state === "running" && (
        <button type="button" disabled={busy} onClick={() => void stop()}>
          {t("process.stop")}
        </button>
      )}
      {log !== null && (
        <pre class="process-log" aria-label={t("process.output")}>
          {log === "" ? t("process.noOutput") : log}
        </pre>
      )}
    </div>
  );
}

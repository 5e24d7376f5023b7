import { useEffect, useRef, useState } from "preact/hooks";
import { conversation } from "../../state/store.ts";
import { justCompleted, justStartedWaiting, latestRun } from "../../state/run_announcement.ts";
import type { RunView } from "../../state/projection.ts";
import { t } from "../../i18n/i18n.ts";

/**
 * A visually hidden live region that says when the open thread's answer is complete, and
 * when its Run starts waiting for the user's approval.
 */
export function RunAnnouncer() {
  const run = latestRun(conversation.value);
  const seen = useRef<{ id: string; status: RunView["status"] } | null>(null);
  const [message, setMessage] = useState("");
  useEffect(() => {
    if (!run) return;
    const before = seen.current?.id === run.id ? seen.current.status : null;
    if (justCompleted(before, run)) setMessage(t("announce.completed"));
    else if (justStartedWaiting(before, run)) setMessage(t("progress.waiting"));
    else if (run.status === "queued" || run.status === "running") setMessage("");
    seen.current = { id: run.id, status: run.status };
  }, [run?.id, run?.status]);
  return <div class="visually-hidden" role="status" aria-live="polite">{message}</div>;
}

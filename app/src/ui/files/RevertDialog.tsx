import { useEffect, useState } from "preact/hooks";
import { ModalFrame } from "../ModalFrame.tsx";
import { useModalDialog } from "../modal_dialog.ts";
import { t } from "../../i18n/i18n.ts";
import {
  applyTurnRevert,
  previewTurnRevert,
  revertTurnId,
  type TurnRevert,
} from "../../state/turn_revert.ts";

/**
 * "Undo file changes": lists what a revert of the turn would do (a dry run), and confirms.
 * With conflicts (a file changed since the turn) the plain revert is refused by the runtime,
 * so the dialog offers "Revert anyway", which overwrites them.
 */
export function RevertDialog() {
  const turnId = revertTurnId.value;
  const [plan, setPlan] = useState<TurnRevert | null>(null);
  const [done, setDone] = useState<TurnRevert | null>(null);
  const [busy, setBusy] = useState(false);
  const modal = useModalDialog(turnId !== null, () => (revertTurnId.value = null));
  useEffect(() => {
    setPlan(null);
    setDone(null);
    if (!turnId) return;
    let current = true;
    void previewTurnRevert(turnId).then((loaded) => current && setPlan(loaded));
    return () => {
      current = false;
    };
  }, [turnId]);
  if (!turnId) return null;
  const shown = done ?? plan;
  const conflicts = plan?.files.filter((file) => file.outcome === "conflict").length ?? 0;
  const revertible = plan?.files.some((file) => file.outcome === "reverted") ?? false;
  const confirm = async (force: boolean) => {
    setBusy(true);
    const result = await applyTurnRevert(turnId, force);
    setBusy(false);
    if (result) setDone(result);
  };
  return (
    <ModalFrame
      modal={modal}
      class="revert-dialog"
      titleId="revert-title"
      title={t(shown?.direction === "redo" ? "revert.titleRedo" : "revert.title")}
      closeLabel={t("revert.close")}
      closeAutofocus
    >
      {shown === null && <p class="muted">{t("revert.loading")}</p>}
      {shown !== null && shown.files.length === 0 && <p>{t("revert.none")}</p>}
      {shown !== null && shown.files.length > 0 && (
        <ul class="revert-files" aria-label={t("revert.files")}>
          {shown.files.map((file) => (
            <li key={file.path} data-outcome={file.outcome}>
              <code>{file.path}</code> — {done !== null && file.outcome === "reverted"
                ? t("revert.restored")
                : t(`revert.outcome.${file.outcome}`)}
              {file.reason === "changed_since" && file.outcome === "reverted" &&
                ` (${t("revert.overwritten")})`}
            </li>
          ))}
        </ul>
      )}
      {done !== null && <p role="status">{t(done.applied ? "revert.done" : "revert.nothing")}</p>}
      {done === null && plan !== null && conflicts > 0 && (
        <p role="alert">{t("revert.conflicts", { count: conflicts })}</p>
      )}
      {done === null && plan !== null && (revertible || conflicts > 0) && (
        <div class="dialog-actions">
          {conflicts === 0
            ? (
              <button
                type="button"
                disabled={busy}
                onClick={() => void confirm(false)}
              >
                {t("revert.confirm")}
              </button>
            )
            : (
              <button
                type="button"
                class="danger"
                disabled={busy}
                onClick={() => void confirm(true)}
              >
                {t("revert.force")}
              </button>
            )}
        </div>
      )}
    </ModalFrame>
  );
}

import { useEffect, useState } from "preact/hooks";
import { ModalFrame } from "../ModalFrame.tsx";
import { useModalDialog } from "../modal_dialog.ts";
import { t } from "../../i18n/i18n.ts";
import { threads } from "../../state/store.ts";
import { deleteTarget, deleteThread } from "../../state/thread_delete.ts";
import { openSettings } from "../../state/settings_nav.ts";
import "./delete_dialog.css";

/**
 * "Delete…" of the thread menu: says what is erased (the conversation and its history in
 * Daedalus) and what stays (workspace files, memories, with a way to them), then deletes
 * on the destructive button. Cancel has the focus, Escape closes it. A thread with an
 * active Run cannot be deleted: the dialog says why instead of offering Delete.
 */
export function DeleteThreadDialog() {
  const target = deleteTarget.value;
  const threadId = target?.threadId ?? null;
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState(false);
  const close = () => (deleteTarget.value = null);
  const modal = useModalDialog(threadId !== null, close);
  useEffect(() => {
    setBusy(false);
    setRefused(false);
  }, [threadId]);
  if (target === null || threadId === null) return null;
  // The sidebar's copy is the newest (renamed meanwhile); an archived thread has none.
  const title = threads.value.byId[threadId]?.title ?? target.title;
  const active = threadId in threads.value.running || threadId in threads.value.waiting;
  const blocked = active || refused;
  const confirm = async () => {
    setBusy(true);
    const outcome = await deleteThread(threadId);
    setBusy(false);
    if (outcome === "deleted") {
      target.onDeleted?.();
      modal.close();
    } else if (outcome === "busy") setRefused(true);
  };
  return (
    <ModalFrame
      modal={modal}
      class="delete-dialog"
      titleId="delete-title"
      title={t("delete.title", { title: title ?? t("thread.untitled") })}
      closeLabel={t("delete.close")}
    >
      <p>{t("delete.erases")}</p>
      <p class="delete-stays">
        {t("delete.stays")}{" "}
        <button
          type="button"
          class="delete-link"
          onClick={() => {
            modal.close();
            openSettings("memory");
          }}
        >
          {t("delete.memories")}
        </button>
      </p>
      {blocked && <p class="delete-busy" role="alert">{t("delete.busy")}</p>}
      <div class="dialog-actions">
        <button type="button" autofocus onClick={modal.close}>
          {t("delete.cancel")}
        </button>
        <button
          type="button"
          class="danger delete-confirm"
          disabled={busy || blocked}
          onClick={() => void confirm()}
        >
          {busy ? t("delete.deleting") : t("delete.confirm")}
        </button>
      </div>
    </ModalFrame>
  );
}

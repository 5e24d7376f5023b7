import { signal } from "@preact/signals";
import { t } from "../../i18n/i18n.ts";
import { useModalDialog } from "../modal_dialog.ts";
import { ArchivedList } from "./ArchivedList.tsx";

/** Whether the archived threads dialog is open (the sidebar's Archived). */
export const archivedOpen = signal(false);

/**
 * The archived threads ({@linkcode ArchivedList}) in a modal `<dialog>`: focus stays
 * inside and Escape closes it.
 */
export function ArchivedDialog() {
  const open = archivedOpen.value;
  const modal = useModalDialog(open, () => (archivedOpen.value = false));
  if (!open) return null;
  return (
    <dialog
      ref={modal.ref}
      class="modal archived-dialog"
      aria-labelledby="archived-title"
      onClose={modal.onClose}
    >
      <header>
        <h2 id="archived-title">{t("archived.title")}</h2>
        <button type="button" onClick={modal.close} autofocus>{t("diff.close")}</button>
      </header>
      <ArchivedList />
    </dialog>
  );
}

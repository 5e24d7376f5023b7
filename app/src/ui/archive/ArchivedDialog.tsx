import { ModalFrame } from "../ModalFrame.tsx";
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
    <ModalFrame
      modal={modal}
      class="archived-dialog"
      titleId="archived-title"
      title={t("archived.title")}
      closeLabel={t("diff.close")}
      closeAutofocus
    >
      <ArchivedList />
    </ModalFrame>
  );
}

import { signal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import { ArchivedList } from "./ArchivedList.tsx";

/** Whether the archived threads dialog is open (the sidebar's Archived). */
export const archivedOpen = signal(false);

/**
 * The archived threads ({@linkcode ArchivedList}) in a modal `<dialog>`: focus stays
 * inside and Escape closes it.
 */
export function ArchivedDialog() {
  const open = archivedOpen.value;
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);
  if (!open) return null;
  const close = () => {
    dialog.current?.close();
    archivedOpen.value = false;
  };
  return (
    <dialog
      ref={dialog}
      class="modal archived-dialog"
      aria-labelledby="archived-title"
      onClose={() => (archivedOpen.value = false)}
    >
      <header>
        <h2 id="archived-title">{t("archived.title")}</h2>
        <button type="button" onClick={close} autofocus>{t("diff.close")}</button>
      </header>
      <ArchivedList />
    </dialog>
  );
}

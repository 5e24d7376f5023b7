import { signal } from "@preact/signals";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Thread } from "@daedalus/client";
import { listArchived, unarchiveThread } from "../../state/store.ts";
import { t } from "../../i18n/i18n.ts";

/** Whether the archived threads dialog is open (the sidebar's Archived). */
export const archivedOpen = signal(false);

/**
 * The archived threads, newest first, each with Unarchive (it returns to the sidebar).
 * A modal `<dialog>`: focus stays inside and Escape closes it.
 */
export function ArchivedDialog() {
  const open = archivedOpen.value;
  const dialog = useRef<HTMLDialogElement>(null);
  const [list, setList] = useState<Thread[] | null>(null);
  useEffect(() => {
    setList(null);
    if (!open) return;
    dialog.current?.showModal();
    let current = true;
    void listArchived().then((found) => current && setList(found ?? []));
    return () => {
      current = false;
    };
  }, [open]);
  if (!open) return null;
  const close = () => {
    dialog.current?.close();
    archivedOpen.value = false;
  };
  const unarchive = async (threadId: string) => {
    if (await unarchiveThread(threadId)) {
      setList((previous) => previous?.filter((thread) => thread.id !== threadId) ?? null);
    }
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
      {list === null && <p class="muted">{t("archived.loading")}</p>}
      {list?.length === 0 && <p class="muted">{t("archived.none")}</p>}
      {list && list.length > 0 && (
        <ul>
          {list.map((thread) => (
            <li key={thread.id}>
              <span class="title">{thread.title ?? t("thread.untitled")}</span>
              <button type="button" onClick={() => void unarchive(thread.id)}>
                {t("archived.unarchive")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </dialog>
  );
}

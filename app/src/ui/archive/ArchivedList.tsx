import { useEffect, useState } from "preact/hooks";
import type { Thread } from "@daedalus/client";
import { listArchived, unarchiveThread } from "../../state/store.ts";
import { t } from "../../i18n/i18n.ts";
import { deleteTarget } from "../../state/thread_delete.ts";

/**
 * The archived threads, newest first, each with Unarchive (it returns to the sidebar) and
 * Delete… (the same confirmation as the thread menu's).
 * Read once when shown; used by the sidebar's Archived dialog and Settings › General.
 */
export function ArchivedList() {
  const [list, setList] = useState<Thread[] | null>(null);
  useEffect(() => {
    let current = true;
    void listArchived().then((found) => current && setList(found ?? []));
    return () => {
      current = false;
    };
  }, []);
  const unarchive = async (threadId: string) => {
    if (await unarchiveThread(threadId)) {
      setList((previous) => previous?.filter((thread) => thread.id !== threadId) ?? null);
    }
  };
  if (list === null) return <p class="muted" role="status">{t("archived.loading")}</p>;
  if (list.length === 0) return <p class="muted" role="status">{t("archived.none")}</p>;
  return (
    <ul class="archived-list">
      {list.map((thread) => (
        <li key={thread.id}>
          <span class="title">{thread.title ?? t("thread.untitled")}</span>
          <span class="archived-actions">
            <button type="button" onClick={() => void unarchive(thread.id)}>
              {t("archived.unarchive")}
            </button>
            <button
              type="button"
              class="danger"
              onClick={() =>
                deleteTarget.value = {
                  threadId: thread.id,
                  title: thread.title,
                  onDeleted: () =>
                    setList((previous) =>
                      previous?.filter((other) => other.id !== thread.id) ?? null
                    ),
                }}
            >
              {t("delete.menu")}
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
}

import { signal } from "@preact/signals";
import { useState } from "preact/hooks";
import { openThread, threadList } from "../../state/store.ts";
import { searchThreads } from "../../state/thread_search.ts";
import { t } from "../../i18n/i18n.ts";
import { listKeyTarget } from "../list_keys.ts";
import { useModalDialog } from "../modal_dialog.ts";

/** Whether the search dialog is open (Ctrl/Cmd+K, or the sidebar's Search). */
export const searchOpen = signal(false);

/**
 * Finds a thread by title among the loaded ones. A modal `<dialog>` (focus stays inside,
 * Escape closes) with a search box driving a listbox: arrows, Home and End move through the results,
 * Enter opens one; keys typed while an IME composes are left to the IME.
 */
export function SearchDialog() {
  const open = searchOpen.value;
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const modal = useModalDialog(open, () => (searchOpen.value = false), () => {
    setQuery("");
    setActive(0);
  });
  if (!open) return null;
  const untitled = t("thread.untitled");
  const results = searchThreads(threadList.value, query, untitled);
  const current = Math.min(active, Math.max(results.length - 1, 0));
  const close = modal.close;
  const choose = (threadId: string) => {
    close();
    void openThread(threadId);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.isComposing) return;
    const move = listKeyTarget(event.key, results.length, current);
    if (event.key === "Escape") {
      // A search field would only clear itself on the first Escape; close at once.
      event.preventDefault();
      close();
    } else if (move !== null) {
      event.preventDefault();
      setActive(move);
    } else if (event.key === "Enter" && results[current]) {
      event.preventDefault();
      choose(results[current].id);
    }
  };
  return (
    <dialog
      ref={modal.ref}
      class="modal search-dialog"
      aria-label={t("search.label")}
      onClose={modal.onClose}
    >
      <input
        type="search"
        aria-controls="search-results"
        aria-activedescendant={results[current] ? `search-${results[current].id}` : undefined}
        aria-label={t("search.label")}
        placeholder={t("search.placeholder")}
        value={query}
        autofocus
        onInput={(event) => {
          setQuery(event.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <ul id="search-results" role="listbox" aria-label={t("search.results")}>
        {results.map((thread, index) => (
          <li
            key={thread.id}
            id={`search-${thread.id}`}
            role="option"
            aria-selected={index === current}
            class={index === current ? "active" : undefined}
            onClick={() => choose(thread.id)}
          >
            {thread.title ?? untitled}
          </li>
        ))}
      </ul>
      {results.length === 0 && <p class="muted">{t("search.none")}</p>}
    </dialog>
  );
}

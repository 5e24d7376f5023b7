import { signal } from "@preact/signals";
import { useEffect, useMemo, useState } from "preact/hooks";
import { openThread, threadList } from "../../state/store.ts";
import { searchThreads } from "../../state/thread_search.ts";
import {
  IDLE_SEARCH,
  type MessageHit,
  messageSearcher,
  type MessageSearchState,
  openAtTurn,
  SEARCH_DEBOUNCE_MS,
  snippetParts,
} from "../../state/message_search.ts";
import { SEARCH_QUERY_MAX_CHARS } from "@daedalus/client";
import { t } from "../../i18n/i18n.ts";
import { listKeyTarget } from "../list_keys.ts";
import { useModalDialog } from "../modal_dialog.ts";
import { MessageTime } from "../feed/MessageTime.tsx";

/** Whether the search dialog is open (Ctrl/Cmd+K, or the sidebar's Search). */
export const searchOpen = signal(false);

/** Thread-title matches listed above the message matches: a few, since messages say more. */
const TITLE_RESULTS_SHOWN = 5;

/** One option of the listbox: a thread by its title, or a message. */
type Option =
  | { kind: "thread"; id: string; threadId: string; title: string }
  | { kind: "message"; id: string; hit: MessageHit }
  | { kind: "more"; id: string };

/**
 * Finds threads by title (among the loaded ones) and messages by what was said (the
 * runtime's `thread.search`, asked once typing pauses). A modal `<dialog>` (focus stays
 * inside, Escape closes) with a search box driving one listbox of both groups: arrows,
 * Home and End move through the results, Enter opens one — a message opens its thread at
 * its turn; keys typed while an IME composes are left to the IME.
 */
export function SearchDialog() {
  const open = searchOpen.value;
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [messages, setMessages] = useState<MessageSearchState>(IDLE_SEARCH);
  const searcher = useMemo(() => messageSearcher(setMessages), []);
  const modal = useModalDialog(open, () => (searchOpen.value = false), () => {
    setQuery("");
    setActive(0);
    setMessages(IDLE_SEARCH);
  });
  useEffect(() => {
    if (!open) return;
    if (query.trim() === "") {
      void searcher.search("");
      return;
    }
    // Shown as loading at once, asked once typing pauses.
    setMessages((state) => ({ ...state, loading: true }));
    const timer = setTimeout(() => void searcher.search(query), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, open]);
  if (!open) return null;
  const untitled = t("thread.untitled");
  const titles: Option[] = searchThreads(threadList.value, query, untitled)
    .slice(0, query.trim() === "" ? undefined : TITLE_RESULTS_SHOWN)
    .map((thread) => ({
      kind: "thread",
      id: `search-thread-${thread.id}`,
      threadId: thread.id,
      title: thread.title ?? untitled,
    }));
  const hits: Option[] = messages.hits.map((hit) => ({
    kind: "message",
    id: `search-item-${hit.itemId}`,
    hit,
  }));
  // The next page of messages is one more option, so the keyboard reaches it too.
  const more: Option[] = messages.nextCursor !== null && !messages.loading
    ? [{ kind: "more", id: "search-more" }]
    : [];
  const options = [...titles, ...hits, ...more];
  const current = Math.min(active, Math.max(options.length - 1, 0));
  const close = modal.close;
  const choose = (option: Option) => {
    if (option.kind === "more") {
      void searcher.more();
      return;
    }
    close();
    if (option.kind === "thread") void openThread(option.threadId);
    else void openAtTurn(option.hit);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.isComposing) return;
    const move = listKeyTarget(event.key, options.length, current);
    if (event.key === "Escape") {
      // A search field would only clear itself on the first Escape; close at once.
      event.preventDefault();
      close();
    } else if (move !== null) {
      event.preventDefault();
      setActive(move);
      document.getElementById(options[move]!.id)?.scrollIntoView({ block: "nearest" });
    } else if (event.key === "Enter" && options[current]) {
      event.preventDefault();
      choose(options[current]);
    }
  };
  const status = query.trim() === ""
    ? (titles.length === 0 ? t("search.none") : "")
    : messages.loading
    ? t("search.loading")
    : messages.failed
    ? t("search.failed")
    : hits.length > 0
    ? ""
    : titles.length === 0
    ? t("search.none")
    : t("search.noMessages");
  const option = (item: Option, index: number) => (
    <li
      key={item.id}
      id={item.id}
      role="option"
      aria-selected={index === current}
      class={`${item.kind}-hit${index === current ? " active" : ""}`}
      onClick={() => choose(item)}
    >
      {item.kind === "thread"
        ? item.title
        : item.kind === "more"
        ? t("search.more")
        : <MessageHitView hit={item.hit} untitled={untitled} />}
    </li>
  );
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
        aria-activedescendant={options[current]?.id}
        aria-label={t("search.label")}
        placeholder={t("search.placeholder")}
        maxLength={SEARCH_QUERY_MAX_CHARS}
        value={query}
        autofocus
        onInput={(event) => {
          setQuery(event.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <div
        id="search-results"
        class="search-results"
        role="listbox"
        aria-label={t("search.results")}
      >
        {titles.length > 0 && (
          <ul role="group" aria-labelledby="search-group-threads">
            <li role="presentation" id="search-group-threads" class="search-group">
              {t("search.threads")}
            </li>
            {titles.map(option)}
          </ul>
        )}
        {hits.length > 0 && (
          <ul role="group" aria-labelledby="search-group-messages">
            <li role="presentation" id="search-group-messages" class="search-group">
              {t("search.messages")}
            </li>
            {[...hits, ...more].map((item, index) => option(item, titles.length + index))}
          </ul>
        )}
      </div>
      {status !== "" && <p class="muted search-status" role="status">{status}</p>}
    </dialog>
  );
}

/** A message result: the snippet with its matches marked, its thread and when it was said. */
function MessageHitView(props: { hit: MessageHit; untitled: string }) {
  const { hit } = props;
  return (
    <>
      <span class="hit-snippet">
        {snippetParts(hit.snippet, hit.highlights).map((part, i) =>
          part.mark ? <mark key={i}>{part.text}</mark> : part.text
        )}
      </span>
      <span class="hit-meta">
        <span class="hit-role">
          {hit.role === "user" ? t("search.you") : t("search.assistant")}
        </span>
        <span class="hit-thread">{hit.threadTitle ?? props.untitled}</span>
        {hit.archived && <span class="hit-archived">{t("search.archived")}</span>}
        <MessageTime at={hit.createdAt} />
      </span>
    </>
  );
}

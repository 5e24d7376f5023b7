import { SourceBadge } from "./gateway/SourceBadge.tsx";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { archiveThread, conversation, renameThread, threads } from "../state/store.ts";
import { t } from "../i18n/i18n.ts";
import { moveFocusInMenu } from "./list_keys.ts";
import { downloadThreadExport } from "../state/thread_export.ts";
import type { ThreadExportFormat } from "../state/export_name.ts";
import { deleteTarget } from "../state/thread_delete.ts";
import { AgentSwitch } from "./AgentSwitch.tsx";

/** Titles longer than this are refused by `thread.rename` (THREAD_TITLE_MAX_CHARS). */
const TITLE_MAX_CHARS = 200;

/**
 * The open thread's header: its title (renamed in place), the model of its latest Run,
 * and a menu with Rename, Export (Markdown, or JSON lines with the hash chain), Archive
 * (it closes the thread) and Delete… (last, with a confirmation). The menu is keyboard-navigable (arrows, Home,
 * End, Escape returns focus to its button).
 */
export function ConversationHeader() {
  const state = conversation.value;
  const [menuOpen, setMenuOpen] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    // Right after the menu renders, before the next key press: focus its first item.
    if (menuOpen) menu.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
  }, [menuOpen]);
  if (!state) return null;
  const thread = threads.value.byId[state.threadId];
  const title = thread?.title ?? t("thread.untitled");
  const lastRun = state.turns.at(-1)?.runs.at(-1);
  // A Run that moved to its fallback names both models: where it started, where it ended.
  const fallbackId = lastRun?.fallback?.to.modelId;
  const model = lastRun?.modelId
    ? (fallbackId ? `${lastRun.modelId} → ${fallbackId}` : lastRun.modelId)
    : null;

  const closeMenu = () => {
    setMenuOpen(false);
    menuButton.current?.focus();
  };
  const onMenuKey = moveFocusInMenu("[role=menuitem]", closeMenu);
  const save = async () => {
    const next = editing?.trim() ?? "";
    if (next !== "" && next !== thread?.title) await renameThread(next);
    setEditing(null);
  };

  return (
    <header class="conversation-header">
      {editing === null ? <h1>{title}</h1> : (
        <input
          class="rename"
          aria-label={t("header.renameLabel")}
          value={editing}
          maxLength={TITLE_MAX_CHARS}
          autofocus
          onInput={(event) => setEditing(event.currentTarget.value)}
          onBlur={() => void save()}
          onKeyDown={(event) => {
            if (event.isComposing) return;
            if (event.key === "Enter") void save();
            if (event.key === "Escape") setEditing(null);
          }}
        />
      )}
      <SourceBadge thread={thread} />
      <AgentSwitch threadId={state.threadId} />
      {model && <span class="model-label" title={t("header.model")}>{model}</span>}
      <div class="menu-anchor">
        <button
          ref={menuButton}
          type="button"
          class="thread-menu"
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          aria-label={t("header.menu")}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          ⋯
        </button>
        {menuOpen && (
          <ul ref={menu} role="menu" aria-label={t("header.menu")} onKeyDown={onMenuKey}>
            <li
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setMenuOpen(false);
                setEditing(thread?.title ?? "");
              }}
              onKeyDown={(event) => event.key === "Enter" && event.currentTarget.click()}
            >
              {t("header.rename")}
            </li>
            {(["markdown", "jsonl"] as ThreadExportFormat[]).map((format) => (
              <li
                key={format}
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  closeMenu();
                  void downloadThreadExport(state.threadId, thread?.title ?? "", format);
                }}
                onKeyDown={(event) => event.key === "Enter" && event.currentTarget.click()}
              >
                {t(format === "markdown" ? "header.exportMarkdown" : "header.exportJson")}
              </li>
            ))}
            <li
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setMenuOpen(false);
                void archiveThread();
              }}
              onKeyDown={(event) => event.key === "Enter" && event.currentTarget.click()}
            >
              {t("header.archive")}
            </li>
            <li
              role="menuitem"
              tabIndex={-1}
              class="danger"
              onClick={() => {
                setMenuOpen(false);
                deleteTarget.value = { threadId: state.threadId, title: thread?.title ?? null };
              }}
              onKeyDown={(event) => event.key === "Enter" && event.currentTarget.click()}
            >
              {t("delete.menu")}
            </li>
          </ul>
        )}
      </div>
    </header>
  );
}

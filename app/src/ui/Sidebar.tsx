import { useEffect, useRef } from "preact/hooks";
import { startNewThread, threadList, threads } from "../state/store.ts";
import { t } from "../i18n/i18n.ts";
import { searchOpen } from "./search/SearchDialog.tsx";
import { archivedOpen } from "./archive/ArchivedDialog.tsx";
import { openSettings } from "../state/settings_nav.ts";
import { sidebarLayout, updateSidebarLayout } from "../state/sidebar_layout.ts";
import { ThreadList } from "./sidebar/ThreadList.tsx";
import { newProjectOpen } from "./sidebar/NewProjectDialog.tsx";
import { closeDrawer, drawerOpen, phoneLayout } from "../state/drawer.ts";
import { isCloseSwipe } from "./swipe.ts";
import "./sidebar/sidebar.css";

/**
 * Sidebar controls that lead somewhere that takes the focus itself (a dialog, the start
 * screen's composer): on a phone the drawer gets out of the way for them.
 */
const LEAVES_DRAWER =
  ".new-thread, .search-threads, .new-project-thread, .archived-threads, .open-settings, " +
  ".project-new";
/** A thread chosen in the drawer: it closes and the focus returns to the menu button. */
const OPENS_THREAD = "button.thread";

/**
 * Threads, most recent first and grouped by project, with "new thread" and search. In the
 * phone layout it is a drawer over the conversation: the header's menu button opens it,
 * its close button, Escape, a tap on the scrim or a swipe to the left close it.
 */
export function Sidebar() {
  const list = threadList.value;
  const loading = threads.value.snapshotSeq === null;
  const { width, collapsed: collapsedWide } = sidebarLayout.value;
  const phone = phoneLayout.value;
  const open = phone && drawerOpen.value;
  // a phone's drawer is never the narrow strip: it is either open in full or off screen
  const collapsed = collapsedWide && !phone;
  const nav = useRef<HTMLElement>(null);
  const touch = useRef<{ x: number; y: number } | null>(null);
  useEffect(() => {
    // Into the drawer as it opens, on its first action (the opener gets it back on close).
    if (open) nav.current?.querySelector<HTMLElement>(".new-thread")?.focus();
  }, [open]);
  if (collapsed) {
    return (
      <nav class="sidebar collapsed" aria-label={t("sidebar.label")}>
        <button
          type="button"
          class="sidebar-toggle"
          aria-expanded="false"
          aria-label={t("sidebar.expand")}
          title={t("sidebar.expand")}
          onClick={() => updateSidebarLayout({ collapsed: false })}
        >
          »
        </button>
        <SettingsButton />
      </nav>
    );
  }
  return (
    <>
      {open && <div class="drawer-scrim" aria-hidden="true" onClick={() => closeDrawer()} />}
      <nav
        ref={nav}
        id="sidebar"
        class={phone ? `sidebar drawer${open ? " open" : ""}` : "sidebar"}
        aria-label={t("sidebar.label")}
        style={phone ? undefined : { width: `${width}px` }}
        // closed, the drawer is off screen: out of the tab order and the accessibility tree
        inert={phone && !open}
        onKeyDown={(event) => {
          if (open && event.key === "Escape" && !event.isComposing) {
            event.preventDefault();
            closeDrawer();
          }
        }}
        onClick={(event) => {
          const target = event.target;
          if (!open || !(target instanceof Element)) return;
          if (target.closest(LEAVES_DRAWER)) closeDrawer(false);
          else if (target.closest(OPENS_THREAD)) closeDrawer();
        }}
        onTouchStart={(event) => {
          const point = event.touches[0];
          touch.current = point ? { x: point.clientX, y: point.clientY } : null;
        }}
        onTouchEnd={(event) => {
          const start = touch.current;
          const point = event.changedTouches[0];
          touch.current = null;
          if (
            open && start && point && isCloseSwipe(point.clientX - start.x, point.clientY - start.y)
          ) {
            closeDrawer();
          }
        }}
      >
        {phone
          ? (
            <div class="drawer-head">
              <span class="drawer-title">{t("app.title")}</span>
              <button
                type="button"
                class="sidebar-toggle"
                aria-label={t("drawer.close")}
                title={t("drawer.close")}
                onClick={() => closeDrawer()}
              >
                ×
              </button>
            </div>
          )
          : (
            <button
              type="button"
              class="sidebar-toggle"
              aria-expanded="true"
              aria-label={t("sidebar.collapse")}
              title={t("sidebar.collapse")}
              onClick={() => updateSidebarLayout({ collapsed: true })}
            >
              «
            </button>
          )}
        <button
          type="button"
          class="new-thread"
          onClick={() => startNewThread()}
          title={t("sidebar.newThreadHint")}
        >
          {t("sidebar.newThread")} <kbd>{t("sidebar.newThreadHint")}</kbd>
        </button>
        <button
          type="button"
          class="search-threads"
          onClick={() => (searchOpen.value = true)}
          title={t("search.hint")}
        >
          {t("search.open")} <kbd>{t("search.hint")}</kbd>
        </button>
        <button
          type="button"
          class="new-project-thread"
          onClick={() => (newProjectOpen.value = true)}
        >
          {t("projects.new")}
        </button>
        {loading && <p class="muted">{t("sidebar.loading")}</p>}
        {!loading && list.length === 0 && <p class="muted">{t("sidebar.empty")}</p>}
        <ThreadList />
        <button type="button" class="archived-threads" onClick={() => (archivedOpen.value = true)}>
          {t("archived.open")}
        </button>
        <SettingsButton label />
      </nav>
    </>
  );
}

/** Opens Settings; the collapsed sidebar shows only the gear. */
function SettingsButton({ label = false }: { label?: boolean }) {
  return (
    <button
      type="button"
      class="open-settings"
      aria-label={t("settings.open")}
      title={`${t("settings.open")} (${t("settings.openHint")})`}
      aria-keyshortcuts="Control+, Meta+,"
      onClick={() => openSettings("providers")}
    >
      <span aria-hidden="true">⚙</span>
      {label && ` ${t("settings.open")}`}
    </button>
  );
}

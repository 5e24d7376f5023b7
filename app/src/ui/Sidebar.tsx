import { startNewThread, threadList, threads } from "../state/store.ts";
import { t } from "../i18n/i18n.ts";
import { searchOpen } from "./search/SearchDialog.tsx";
import { archivedOpen } from "./archive/ArchivedDialog.tsx";
import { openSettings } from "../state/settings_nav.ts";
import { sidebarLayout, updateSidebarLayout } from "../state/sidebar_layout.ts";
import { ThreadList } from "./sidebar/ThreadList.tsx";
import { newProjectOpen } from "./sidebar/NewProjectDialog.tsx";
import "./sidebar/sidebar.css";

/** Threads, most recent first and grouped by project, with "new thread" and search. */
export function Sidebar() {
  const list = threadList.value;
  const loading = threads.value.snapshotSeq === null;
  const { width, collapsed } = sidebarLayout.value;
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
    <nav class="sidebar" aria-label={t("sidebar.label")} style={{ width: `${width}px` }}>
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

import { useEffect, useLayoutEffect } from "preact/hooks";
import { computed } from "@preact/signals";
import { railCollapsed } from "../state/turn_rail.ts";
import { conversation, lastError, startNewThread } from "../state/store.ts";
import { t } from "../i18n/i18n.ts";
import { ConnectionBanner } from "./ConnectionBanner.tsx";
import { UpdatePrompt } from "./UpdatePrompt.tsx";
import { NotificationOffer } from "./NotificationOffer.tsx";
import { Sidebar } from "./Sidebar.tsx";
import { SidebarResizer } from "./SidebarResizer.tsx";
import { Conversation } from "./Conversation.tsx";
import { Composer } from "./Composer.tsx";
import { RunAnnouncer } from "./run/RunAnnouncer.tsx";
import { ConversationHeader } from "./ConversationHeader.tsx";
import { PhoneBar, PhoneNewThread } from "./PhoneBar.tsx";
import { closeDrawer, drawerOpen, phoneLayout, restoreDrawerFocus } from "../state/drawer.ts";
import { DiffDialog } from "./files/DiffDialog.tsx";
import { RevertDialog } from "./files/RevertDialog.tsx";
import { DeleteThreadDialog } from "./delete/DeleteThreadDialog.tsx";
import { FilePanel } from "./files/FilePanel.tsx";
import { NewProjectDialog } from "./sidebar/NewProjectDialog.tsx";
import { ArchivedDialog } from "./archive/ArchivedDialog.tsx";
import { SearchDialog, searchOpen } from "./search/SearchDialog.tsx";
import { ShortcutsDialog, shortcutsOpen } from "./ShortcutsDialog.tsx";
import { lazyComponent } from "./lazy.tsx";
import { openSettings, settingsSection } from "../state/settings_nav.ts";
import { Onboarding } from "./onboarding/Onboarding.tsx";
import { onboardingOpen } from "../state/onboarding.ts";

/**
 * Whether the open thread shows the turn navigator (it has turns). Computed, so the App
 * re-renders when that changes, not on every streamed delta.
 */
const showsTurnRail = computed(() => {
  const state = conversation.value;
  return state !== null && state.snapshotSeq !== null && state.turns.length > 0;
});

/** Settings' code loads the first time it opens. */
const SettingsDialog = lazyComponent(() =>
  import("./settings/SettingsDialog.tsx").then((module) => module.SettingsDialog)
);

/** The class styles.css lines the composer up by, beside the docked turn rail. */
function railClass(): string {
  if (!showsTurnRail.value) return "";
  return railCollapsed.value ? " with-rail-collapsed" : " with-rail";
}

/** The signed-in app: banner, sidebar, conversation and composer. */
export function App() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) return;
      if (onboardingOpen.value) return; // nothing may open behind the first-run wizard
      const key = event.key.toLowerCase();
      if (key === "n") {
        event.preventDefault();
        startNewThread();
      } else if (key === "k") {
        event.preventDefault();
        searchOpen.value = true;
      } else if (key === ",") {
        event.preventDefault();
        if (settingsSection.value === null) openSettings("providers");
      } else if (key === "/") {
        event.preventDefault();
        shortcutsOpen.value = true;
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  const threadId = conversation.value?.threadId ?? null;
  useEffect(() => {
    // Another thread opened (from the drawer, a link, back/forward): the drawer has done its job.
    closeDrawer(false);
  }, [threadId]);
  // behind the open drawer, the page is out of reach until the drawer closes
  const covered = phoneLayout.value && drawerOpen.value;
  useLayoutEffect(() => {
    if (!covered) restoreDrawerFocus();
  }, [covered]);
  return (
    <div class="shell">
      <ConnectionBanner />
      <UpdatePrompt />
      <NotificationOffer />
      {lastError.value && (
        <div class="error" role="alert" onClick={() => (lastError.value = null)}>
          {t("error.generic", { message: lastError.value })}
        </div>
      )}
      <div class="layout">
        <Sidebar />
        <SidebarResizer />
        <main class={`main${railClass()}`} inert={covered}>
          <div class="main-top">
            <PhoneBar />
            <ConversationHeader />
            <PhoneNewThread />
          </div>
          <Conversation />
          <RunAnnouncer />
          <Composer />
        </main>
        <DiffDialog />
        <RevertDialog />
        <DeleteThreadDialog />
        <FilePanel />
        <NewProjectDialog />
        <SearchDialog />
        <ArchivedDialog />
        <ShortcutsDialog />
        {settingsSection.value !== null && <SettingsDialog />}
      </div>
      <Onboarding />
    </div>
  );
}

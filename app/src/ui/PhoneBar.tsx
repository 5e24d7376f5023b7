import { useRef } from "preact/hooks";
import { computed } from "@preact/signals";
import { conversation, startNewThread } from "../state/store.ts";
import { drawerOpen, openDrawer } from "../state/drawer.ts";
import { t } from "../i18n/i18n.ts";

/** No thread is open (computed: the bar re-renders when that changes, not on each delta). */
const noThread = computed(() => conversation.value === null);

/**
 * The phone layout's controls at the start of the header row: the menu button that opens
 * the sidebar's drawer and, while the drawer is closed, New thread (so it is always one
 * tap away). Hidden by styles.css on wider screens, where the sidebar is a column.
 */
export function PhoneBar() {
  const menu = useRef<HTMLButtonElement>(null);
  return (
    <div class={noThread.value ? "phone-bar alone" : "phone-bar"}>
      <button
        ref={menu}
        type="button"
        class="drawer-open"
        aria-label={t("drawer.open")}
        title={t("drawer.open")}
        aria-controls="sidebar"
        aria-expanded={drawerOpen.value}
        onClick={() => openDrawer(menu.current)}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path
            d="M4 6h16M4 12h16M4 18h16"
            fill="none"
            stroke="currentColor"
            stroke-width="2"
            stroke-linecap="round"
          />
        </svg>
      </button>
      {noThread.value && <span class="phone-title">{t("app.title")}</span>}
    </div>
  );
}

/** New thread in the phone header (the drawer has its own). */
export function PhoneNewThread() {
  return (
    <button
      type="button"
      class="phone-new-thread"
      aria-label={t("sidebar.newThread")}
      title={t("sidebar.newThread")}
      onClick={() => startNewThread()}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M12 5v14M5 12h14"
          fill="none"
          stroke="currentColor"
          stroke-width="2"
          stroke-linecap="round"
        />
      </svg>
    </button>
  );
}

import { ModalFrame } from "../ModalFrame.tsx";
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import {
  closeSettings,
  openSettings,
  type SettingsSection,
  settingsSection,
} from "../../state/settings_nav.ts";
import { menuKeyTarget } from "../list_keys.ts";
import { useModalDialog } from "../modal_dialog.ts";
import { SECTIONS } from "./sections.ts";
import "./settings.css";

/** Where settings.css lays the sections out as a row above the panel. */
const PHONE_QUERY = "(max-width: 640px)";

/**
 * The tabs wrap like a menu's items. They are a column, or a row on a phone, so Right and
 * Left move like Down and Up.
 */
const ROW_KEYS = new Map([["ArrowRight", "ArrowDown"], ["ArrowLeft", "ArrowUp"]]);

/** Whether the phone layout applies, following the window's size. */
function usePhoneLayout(): boolean {
  const [phone, setPhone] = useState(() => matchMedia(PHONE_QUERY).matches);
  useEffect(() => {
    const query = matchMedia(PHONE_QUERY);
    const follow = () => setPhone(query.matches);
    query.addEventListener("change", follow);
    return () => query.removeEventListener("change", follow);
  }, []);
  return phone;
}

/**
 * Settings: a large modal `<dialog>` (full screen on a phone) with a tab list of sections
 * (vertical; a row on a phone; arrows, Home and End move between them) and the open
 * section's panel.
 * Escape or Close closes it.
 */
export function SettingsDialog() {
  const requested = settingsSection.value;
  const tabs = useRef<HTMLDivElement>(null);
  const phone = usePhoneLayout();
  const open = requested !== null;
  const modal = useModalDialog(open, closeSettings);
  if (!open) return null;
  // A section not built (yet) opens the first one rather than an empty panel.
  const current = SECTIONS.find((section) => section.id === requested) ?? SECTIONS[0];
  const select = (id: SettingsSection) => {
    openSettings(id);
    tabs.current?.querySelector<HTMLElement>(`#settings-tab-${id}`)?.focus();
  };
  const onTabKey = (event: KeyboardEvent) => {
    const index = SECTIONS.findIndex((section) => section.id === current.id);
    const next = menuKeyTarget(ROW_KEYS.get(event.key) ?? event.key, SECTIONS.length, index);
    if (next === null) return;
    event.preventDefault();
    select(SECTIONS[next].id);
  };
  const Panel = current.component;
  return (
    <ModalFrame
      modal={modal}
      class="settings"
      titleId="settings-title"
      title={t("settings.title")}
      closeLabel={t("settings.close")}
      headerClass="settings-header"
    >
      <div class="settings-body">
        <div
          ref={tabs}
          class="settings-nav"
          role="tablist"
          aria-orientation={phone ? "horizontal" : "vertical"}
          aria-label={t("settings.sections")}
          onKeyDown={onTabKey}
        >
          {SECTIONS.map((section) => (
            <button
              key={section.id}
              type="button"
              role="tab"
              id={`settings-tab-${section.id}`}
              aria-selected={section.id === current.id}
              aria-controls="settings-panel"
              tabIndex={section.id === current.id ? 0 : -1}
              autofocus={section.id === current.id}
              onClick={() => select(section.id)}
            >
              {t(section.labelKey)}
            </button>
          ))}
        </div>
        <section
          id="settings-panel"
          class={`settings-panel settings-${current.id}`}
          role="tabpanel"
          aria-labelledby={`settings-tab-${current.id}`}
        >
          <Panel key={current.id} />
        </section>
      </div>
    </ModalFrame>
  );
}

import { signal } from "@preact/signals";
import { type MessageKey, t } from "../i18n/i18n.ts";
import { useModalDialog } from "./modal_dialog.ts";
import { ModalFrame } from "./ModalFrame.tsx";

/** Whether the keyboard shortcuts list is open (Ctrl/Cmd+/). */
export const shortcutsOpen = signal(false);

/** Every shortcut the app has, in the order a newcomer needs them. */
const SHORTCUTS: ReadonlyArray<{ keys: string; what: MessageKey }> = [
  { keys: "Enter", what: "shortcuts.send" },
  { keys: "Shift+Enter", what: "shortcuts.newline" },
  { keys: "Ctrl/Cmd+N", what: "shortcuts.newThread" },
  { keys: "Ctrl/Cmd+K", what: "shortcuts.search" },
  { keys: "Ctrl/Cmd+,", what: "shortcuts.settings" },
  { keys: "Alt+↑ / Alt+↓", what: "shortcuts.turns" },
  { keys: "↑ ↓ Home End", what: "shortcuts.lists" },
  { keys: "Escape", what: "shortcuts.escape" },
  { keys: "Ctrl/Cmd+/", what: "shortcuts.this" },
];

/** The keyboard shortcuts, listed. */
export function ShortcutsDialog() {
  const open = shortcutsOpen.value;
  const modal = useModalDialog(open, () => (shortcutsOpen.value = false));
  if (!open) return null;
  return (
    <ModalFrame
      modal={modal}
      class="shortcuts-dialog"
      titleId="shortcuts-title"
      title={t("shortcuts.title")}
      closeLabel={t("diff.close")}
      closeAutofocus
    >
      <dl class="shortcuts">
        {SHORTCUTS.map((shortcut) => (
          <div key={shortcut.keys}>
            <dt>
              <kbd>{shortcut.keys}</kbd>
            </dt>
            <dd>{t(shortcut.what)}</dd>
          </div>
        ))}
      </dl>
    </ModalFrame>
  );
}

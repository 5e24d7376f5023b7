/**
 * Which Settings section is open, if any. A signal of its own so the sidebar, the
 * Ctrl/Cmd+, shortcut and the composer (no usable model) can open Settings at a section
 * without importing the dialog.
 *
 * @module
 */
import { signal } from "@preact/signals";

/** The Settings sections, in the order the navigation lists them. */
export type SettingsSection =
  | "providers"
  | "skills"
  | "agents"
  | "tools"
  | "channels"
  | "memory"
  | "usage"
  | "appearance"
  | "permissions"
  | "health"
  | "gateway"
  | "general";

/** The open section; null while Settings is closed. */
export const settingsSection = signal<SettingsSection | null>(null);

/**
 * Opens Settings (or switches it) at a section.
 *
 * @param section the section to show
 */
export function openSettings(section: SettingsSection): void {
  settingsSection.value = section;
}

/** Closes Settings. */
export function closeSettings(): void {
  settingsSection.value = null;
}

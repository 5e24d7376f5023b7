/**
 * The Settings sections, in navigation order: one entry each. A section is a props-less
 * component; adding one (skills, memory, profile, appearance) is one line here.
 *
 * @module
 */
import type { ComponentType } from "preact";
import type { MessageKey } from "../../i18n/i18n.ts";
import type { SettingsSection } from "../../state/settings_nav.ts";
import { ProvidersSection } from "./ProvidersSection.tsx";
import { GeneralSection } from "./GeneralSection.tsx";
import { AppearanceSection } from "./AppearanceSection.tsx";

/** One section: its id, its navigation label and what it shows. */
export interface SectionEntry {
  id: SettingsSection;
  labelKey: MessageKey;
  component: ComponentType;
}

/** The sections Settings lists. */
export const SECTIONS: readonly SectionEntry[] = [
  { id: "providers", labelKey: "settings.section.providers", component: ProvidersSection },
  { id: "appearance", labelKey: "settings.section.appearance", component: AppearanceSection },
  { id: "general", labelKey: "settings.section.general", component: GeneralSection },
];

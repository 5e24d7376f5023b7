/**
 * The Settings sections, in navigation order: one entry each. A section is a props-less
 * component; adding one is one line here.
 *
 * @module
 */
import type { ComponentType } from "preact";
import type { MessageKey } from "../../i18n/i18n.ts";
import type { SettingsSection } from "../../state/settings_nav.ts";
import { ProvidersSection } from "./ProvidersSection.tsx";
import { GeneralSection } from "./GeneralSection.tsx";
import { AppearanceSection } from "./AppearanceSection.tsx";
import { SkillsSection } from "./SkillsSection.tsx";
import { McpSection } from "./McpSection.tsx";
import { ChannelsSection } from "./ChannelsSection.tsx";
import { AgentsSection } from "./AgentsSection.tsx";
import { MemorySection } from "./MemorySection.tsx";
import { UsageSection } from "./UsageSection.tsx";
import { PermissionsSection } from "./PermissionsSection.tsx";
import { HealthSection } from "./HealthSection.tsx";
import { GatewaySection } from "../gateway/GatewaySection.tsx";

/** One section: its id, its navigation label and what it shows. */
export interface SectionEntry {
  id: SettingsSection;
  labelKey: MessageKey;
  component: ComponentType;
}

/** The sections Settings lists. */
export const SECTIONS: readonly SectionEntry[] = [
  { id: "providers", labelKey: "settings.section.providers", component: ProvidersSection },
  { id: "skills", labelKey: "settings.section.skills", component: SkillsSection },
  { id: "agents", labelKey: "settings.section.agents", component: AgentsSection },
  { id: "tools", labelKey: "settings.section.tools", component: McpSection },
  { id: "channels", labelKey: "settings.section.channels", component: ChannelsSection },
  { id: "memory", labelKey: "settings.section.memory", component: MemorySection },
  { id: "usage", labelKey: "settings.section.usage", component: UsageSection },
  { id: "appearance", labelKey: "settings.section.appearance", component: AppearanceSection },
  {
    id: "permissions",
    labelKey: "settings.section.permissions",
    component: PermissionsSection,
  },
  { id: "health", labelKey: "settings.section.health", component: HealthSection },
  { id: "gateway", labelKey: "settings.section.gateway", component: GatewaySection },
  { id: "general", labelKey: "settings.section.general", component: GeneralSection },
];

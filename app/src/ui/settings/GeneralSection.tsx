import { shortcutsOpen } from "../ShortcutsDialog.tsx";
import { closeSettings } from "../../state/settings_nav.ts";
import { type Locale, locale, LOCALES, setLocale, t } from "../../i18n/i18n.ts";
import { ArchivedList } from "../archive/ArchivedList.tsx";
import { logOut } from "../../session.ts";
import { useState } from "preact/hooks";
import { onboardingRecord, saveUserName } from "../../state/onboarding.ts";
import { USER_NAME_MAX_CHARS } from "../../state/onboarding_flow.ts";
import { AuxiliarySwitches } from "./AuxiliarySwitches.tsx";
import { CompactionControls } from "./CompactionControls.tsx";
// The switches' look is the Skills section's switch.
import "./data_sections.css";
import "./skills.css";

/** Each locale named in its own language, so anyone can find theirs. */
const LOCALE_NAMES: Record<Locale, string> = { en: "English", "zh-CN": "中文（简体）" };

/**
 * Settings › General: the interface language (applied at once), the runtime's calls after
 * each message (titles, memory refinement), archived threads, and signing this browser out.
 */
export function GeneralSection() {
  return (
    <div class="settings-general">
      <h3>{t("settings.section.general")}</h3>
      <label class="settings-field">
        <span>{t("settings.general.language")}</span>
        <select
          value={locale.value}
          onChange={(event) => setLocale(event.currentTarget.value as Locale)}
        >
          {(Object.keys(LOCALES) as Locale[]).map((code) => (
            <option key={code} value={code} lang={code}>{LOCALE_NAMES[code]}</option>
          ))}
        </select>
      </label>
      <UserNameField />
      <AuxiliarySwitches />
      <CompactionControls />
      <h4>{t("archived.title")}</h4>
      <ArchivedList />
      <h4>{t("shortcuts.title")}</h4>
      <button
        type="button"
        class="show-shortcuts"
        onClick={() => {
          closeSettings();
          shortcutsOpen.value = true;
        }}
      >
        {t("shortcuts.title")} <kbd>Ctrl/Cmd+/</kbd>
      </button>
      <h4>{t("settings.general.session")}</h4>
      <p class="muted" id="log-out-hint">{t("settings.general.logOutHint")}</p>
      <button
        type="button"
        class="log-out"
        aria-describedby="log-out-hint"
        onClick={() => void logOut()}
      >
        {t("settings.general.logOut")}
      </button>
    </div>
  );
}

/** The local profile's name, saved when the field is left (blank forgets it). */
function UserNameField() {
  const [text, setText] = useState(onboardingRecord.value.userName ?? "");
  const [invalid, setInvalid] = useState(false);
  return (
    <label class="settings-field">
      <span>{t("onboarding.name")}</span>
      <input
        type="text"
        class="user-name"
        autocomplete="nickname"
        value={text}
        maxLength={USER_NAME_MAX_CHARS * 2}
        aria-invalid={invalid}
        aria-describedby="settings-name-hint"
        onInput={(event) => setText(event.currentTarget.value)}
        onChange={(event) => setInvalid(!saveUserName(event.currentTarget.value))}
      />
      <span id="settings-name-hint" class={invalid ? "settings-problem" : "muted"}>
        {t(invalid ? "onboarding.nameInvalid" : "onboarding.nameHint", {
          max: USER_NAME_MAX_CHARS,
        })}
      </span>
    </label>
  );
}

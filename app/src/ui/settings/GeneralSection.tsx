import { type Locale, locale, LOCALES, setLocale, t } from "../../i18n/i18n.ts";
import { ArchivedList } from "../archive/ArchivedList.tsx";

/** Each locale named in its own language, so anyone can find theirs. */
const LOCALE_NAMES: Record<Locale, string> = { en: "English", "zh-CN": "中文（简体）" };

/** Settings › General: the interface language (applied at once) and archived threads. */
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
      <h4>{t("archived.title")}</h4>
      <ArchivedList />
    </div>
  );
}

import { type Locale, locale, setLocale, t } from "../../i18n/i18n.ts";
import { appearance, updateAppearance } from "../../state/appearance.ts";
import { THEME_MODES, type ThemeMode } from "../../state/appearance_prefs.ts";
import { USER_NAME_MAX_CHARS } from "../../state/onboarding_flow.ts";
import type { MessageKey } from "../../i18n/i18n.ts";

/** The language names, each in its own language. */
const LANGUAGES: readonly { locale: Locale; label: string }[] = [
  { locale: "en", label: "English" },
  { locale: "zh-CN", label: "中文" },
];

/** Step 1: the user's name, the language and the theme (both applied at once). */
export function ProfileStep(props: {
  name: string;
  nameInvalid: boolean;
  onName: (name: string) => void;
  onNext: () => void;
  onSkip: () => void;
}) {
  return (
    <form
      class="onboarding-form"
      onSubmit={(event) => {
        event.preventDefault();
        props.onNext();
      }}
    >
      <label for="onboarding-name">{t("onboarding.name")}</label>
      <input
        id="onboarding-name"
        type="text"
        autocomplete="nickname"
        maxLength={USER_NAME_MAX_CHARS * 2}
        value={props.name}
        aria-invalid={props.nameInvalid}
        aria-describedby="onboarding-name-hint"
        onInput={(event) => props.onName(event.currentTarget.value)}
      />
      <p id="onboarding-name-hint" class={props.nameInvalid ? "onboarding-problem" : "muted"}>
        {t(props.nameInvalid ? "onboarding.nameInvalid" : "onboarding.nameHint", {
          max: USER_NAME_MAX_CHARS,
        })}
      </p>
      <fieldset>
        <legend>{t("onboarding.language")}</legend>
        {LANGUAGES.map((language) => (
          <label key={language.locale} lang={language.locale}>
            <input
              type="radio"
              name="onboarding-language"
              value={language.locale}
              checked={locale.value === language.locale}
              onChange={() => setLocale(language.locale)}
            />
            {language.label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t("appearance.theme")}</legend>
        {THEME_MODES.map((mode: ThemeMode) => (
          <label key={mode}>
            <input
              type="radio"
              name="onboarding-theme"
              value={mode}
              checked={appearance.value.theme === mode}
              onChange={() => updateAppearance({ theme: mode })}
            />
            {t(`appearance.theme.${mode}` as MessageKey)}
          </label>
        ))}
      </fieldset>
      <footer class="onboarding-actions">
        <button type="button" onClick={props.onSkip}>{t("onboarding.skipStep")}</button>
        <button type="submit" class="primary">{t("onboarding.next")}</button>
      </footer>
    </form>
  );
}

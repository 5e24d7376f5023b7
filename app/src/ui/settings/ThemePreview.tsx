import { t } from "../../i18n/i18n.ts";
import "./theme_preview.css";

/**
 * A small conversation drawn with the live theme: messages, inline code, a code block in
 * the code font, a diff and an accent button, so colour and font choices can be judged
 * before leaving Settings (seed 000 §5, ThemePreview). Decorative, so one image to
 * assistive technology.
 */
export function ThemePreview() {
  return (
    <div class="theme-preview" role="img" aria-label={t("appearance.preview")}>
      <div class="theme-preview-message user">{t("appearance.preview.question")}</div>
      <div class="theme-preview-message">
        {t("appearance.preview.answer")} <code>parse.ts</code>
      </div>
      <pre
        class="theme-preview-code"
        aria-hidden="true"
      ><span class="removed">- if (line = "")</span><span class="added">+ if (line === "")</span></pre>
      <span class="theme-preview-button" aria-hidden="true">{t("appearance.preview.button")}</span>
    </div>
  );
}

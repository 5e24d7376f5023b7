import { locale, type MessageKey, t } from "../../i18n/i18n.ts";
import { appearance } from "../../state/appearance.ts";
import { onboardingRecord } from "../../state/onboarding.ts";
import type { ConnectedProvider } from "../../state/onboarding_flow.ts";

/** Step 3: what was set, with Finish. */
export function SummaryStep(props: {
  provider: ConnectedProvider | null;
  onBack: () => void;
  onFinish: () => void;
}) {
  const name = onboardingRecord.value.userName;
  const provider = props.provider;
  const rows: [MessageKey, string][] = [
    ["summary.name", name ?? t("summary.notSet")],
    ["summary.language", locale.value === "zh-CN" ? "中文" : "English"],
    ["summary.theme", t(`appearance.theme.${appearance.value.theme}` as MessageKey)],
    ["summary.provider", provider ? provider.displayName : t("summary.skipped")],
    [
      "summary.models",
      provider ? provider.modelIds.join(", ") || t("summary.none") : t("summary.skipped"),
    ],
  ];
  return (
    <div class="onboarding-form">
      <dl class="onboarding-summary">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{t(label)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p class="muted">{t("summary.later")}</p>
      <footer class="onboarding-actions">
        <button type="button" onClick={props.onBack}>{t("onboarding.back")}</button>
        <button type="button" class="primary" onClick={props.onFinish}>
          {t("onboarding.finish")}
        </button>
      </footer>
    </div>
  );
}

import { useEffect, useRef, useState } from "preact/hooks";
import {
  completeOnboarding,
  onboardingOpen,
  onboardingRecord,
  saveUserName,
} from "../../state/onboarding.ts";
import { type FlowAction, reduceFlow, startFlow, STEPS } from "../../state/onboarding_flow.ts";
import { type MessageKey, t } from "../../i18n/i18n.ts";
import { useModalDialog } from "../modal_dialog.ts";
import { ProfileStep } from "./ProfileStep.tsx";
import { ProviderStep } from "./ProviderStep.tsx";
import { SummaryStep } from "./SummaryStep.tsx";
import "./onboarding.css";

/**
 * A full-screen modal `<dialog>`. Each step's heading takes focus when the step shows.
 * Escape never closes it silently (that would lose the choice between "later" and
 * "never"): it goes back a step, and on the first step moves focus to "Skip setup".
 */
export function OnboardingDialog() {
  const modal = useModalDialog(true, () => (onboardingOpen.value = false));
  const heading = useRef<HTMLHeadingElement>(null);
  const skipAll = useRef<HTMLButtonElement>(null);
  const [flow, setFlow] = useState(startFlow);
  const [name, setName] = useState(onboardingRecord.value.userName ?? "");
  const [nameInvalid, setNameInvalid] = useState(false);
  useEffect(() => heading.current?.focus(), [flow.step]);
  const dispatch = (action: FlowAction) => {
    const next = reduceFlow(flow, action);
    if (next.outcome !== null) {
      modal.close();
      completeOnboarding();
      return;
    }
    setFlow(next);
  };
  const nextFromProfile = () => {
    if (!saveUserName(name)) return setNameInvalid(true);
    setNameInvalid(false);
    dispatch({ type: "next" });
  };
  const onCancel = (event: Event) => {
    event.preventDefault();
    if (flow.step === "profile") skipAll.current?.focus();
    else dispatch({ type: "back" });
  };
  const at = STEPS.indexOf(flow.step);
  return (
    <dialog
      ref={modal.ref}
      class="modal onboarding-dialog"
      aria-labelledby="onboarding-step-title"
      onCancel={onCancel}
      // Chrome closes a modal anyway on a repeated Escape without user activation in
      // between; that counts as "later": hidden now, offered again on the next run.
      onClose={modal.onClose}
    >
      <header class="onboarding-header">
        <p class="onboarding-welcome">{t("onboarding.welcome")}</p>
        <ol class="onboarding-steps" aria-label={t("onboarding.steps")}>
          {STEPS.map((step, index) => (
            <li
              key={step}
              aria-current={index === at ? "step" : undefined}
              class={index < at ? "done" : undefined}
            >
              <span class="visually-hidden">
                {t("onboarding.stepOf", { step: index + 1, total: STEPS.length })}
              </span>
              {t(`onboarding.step.${step}` as MessageKey)}
            </li>
          ))}
        </ol>
        <button
          ref={skipAll}
          type="button"
          class="onboarding-skip-all"
          onClick={() => dispatch({ type: "skipAll" })}
        >
          {t("onboarding.skipAll")}
        </button>
      </header>
      <div class="onboarding-body">
        <h2 id="onboarding-step-title" ref={heading} tabIndex={-1}>
          {t(`onboarding.title.${flow.step}` as MessageKey)}
        </h2>
        {flow.step === "profile" && (
          <ProfileStep
            name={name}
            nameInvalid={nameInvalid}
            onName={setName}
            onNext={nextFromProfile}
            onSkip={() => dispatch({ type: "skipStep" })}
          />
        )}
        {flow.step === "provider" && (
          <ProviderStep
            connected={flow.provider}
            onConnected={(provider) => dispatch({ type: "connected", provider })}
            onBack={() => dispatch({ type: "back" })}
            onNext={() => dispatch({ type: "next" })}
            onSkip={() => dispatch({ type: "skipStep" })}
          />
        )}
        {flow.step === "summary" && (
          <SummaryStep
            provider={flow.provider}
            onBack={() => dispatch({ type: "back" })}
            onFinish={() => dispatch({ type: "finish" })}
          />
        )}
      </div>
    </dialog>
  );
}

import { effect } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { connection } from "../../state/store.ts";
import { checkOnboarding, onboardingOpen } from "../../state/onboarding.ts";
import { lazyComponent } from "../lazy.tsx";

/** The wizard's code loads only on a first run. */
const OnboardingDialog = lazyComponent(() =>
  import("./OnboardingDialog.tsx").then((module) => module.OnboardingDialog)
);

/**
 * The first-run wizard: asks the runtime once connected whether this is a first run and,
 * if so, shows the three steps over the app.
 */
export function Onboarding() {
  useEffect(
    () =>
      effect(() => {
        if (connection.value === "connected") void checkOnboarding();
      }),
    [],
  );
  return onboardingOpen.value ? <OnboardingDialog /> : null;
}

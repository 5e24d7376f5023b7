import { conversation } from "../../state/store.ts";
import { latestPlan, type ThreadPlan } from "../../state/thread_plan.ts";
import { type MessageKey, t } from "../../i18n/i18n.ts";
import "./plan.css";

/**
 * The open thread's latest plan, pinned above the composer: "Plan · n of m done" and its
 * items with their status. Open while work remains; a finished plan folds to its line.
 * Nothing when the agent made no plan.
 */
export function PlanPin() {
  const plan = latestPlan(conversation.value);
  if (plan === null) return null;
  // Keyed by the result it shows: a new plan opens again even if the last one was folded.
  return <PlanView key={plan.itemId} plan={plan} />;
}

/**
 * One plan as the pin shows it.
 *
 * @param props the plan
 */
export function PlanView(props: { plan: ThreadPlan }) {
  const { plan } = props;
  const finished = plan.done === plan.total;
  return (
    <details class="plan-pin" open={!finished}>
      <summary>
        <span class="plan-label">{t("plan.label")}</span>
        <span class="plan-progress">
          {t("plan.progress", { done: plan.done, total: plan.total })}
        </span>
        <progress
          class="plan-bar"
          max={plan.total}
          value={plan.done}
          aria-label={t("plan.progress", { done: plan.done, total: plan.total })}
        />
      </summary>
      <ol class="plan-items">
        {plan.items.map((item, index) => (
          <li key={index} class={`plan-item status-${item.status}`}>
            <span class="plan-mark" aria-hidden="true">
              {item.status === "done" ? "✓" : item.status === "in_progress" ? "▸" : "○"}
            </span>
            <span class="plan-text">{item.text}</span>
            <span class="visually-hidden">
              {` (${t(`plan.status.${item.status}` as MessageKey)})`}
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}

/**
 * A Run's budgets, checked before each model call: the first limit the Run has reached
 * (configured limit plus what the user added by allowing earlier `budget_reached`
 * approvals), with what allowing adds — the configured limit again ("continue with +N").
 *
 * @module
 */
import type { BudgetKind, BudgetReached, RunConfig } from "@daedalus/protocol";
import type { RunSpend } from "@daedalus/storage";

/** The order limits are checked in (the first one reached is the one asked about). */
const CHECK_ORDER: readonly BudgetKind[] = ["modelCalls", "tokens", "costUsd", "wallTimeSeconds"];

/**
 * The budget a Run has reached, or null.
 *
 * @param config the Run's frozen config (its `budget` and the model's `price`)
 * @param spend what the Run has spent (`readRunSpend`)
 * @returns the first reached limit, or null when none is (or the Run has no budget)
 * @example
 * ```ts
 * budgetReached({ ...config, budget: { modelCalls: 5 } }, spend); // { kind: "modelCalls", … } once 5 calls were made
 * ```
 */
export function budgetReached(
  config: Pick<RunConfig, "budget" | "price">,
  spend: RunSpend,
): BudgetReached | null {
  const budget = config.budget;
  if (!budget) return null;
  for (const kind of CHECK_ORDER) {
    const configured = budget[kind];
    if (configured === undefined) continue;
    const used = usedOf(kind, config, spend);
    if (used === null) continue;
    const limit = configured + spend.extensions[kind];
    if (used >= limit) return { kind, limit, used, extension: configured };
  }
  return null;
}

/** What a Run used of one kind; null when it cannot be counted (cost without a price). */
function usedOf(
  kind: BudgetKind,
  config: Pick<RunConfig, "price">,
  spend: RunSpend,
): number | null {
  switch (kind) {
    case "modelCalls":
      return spend.modelCalls;
    case "tokens":
      return spend.totalTokens;
    case "wallTimeSeconds":
      return Math.floor(spend.runningSeconds);
    case "costUsd": {
      const price = config.price;
      if (!price) return null;
      const cost = (spend.inputTokens * price.inputUsdPerMTok +
        spend.outputTokens * price.outputUsdPerMTok) / 1_000_000;
      // Cents are what a person reads; floating sums must not stop a Run a hair early.
      return Math.round(cost * 1_000_000) / 1_000_000;
    }
  }
}

/**
 * The approval's one line: what was reached and what continuing adds.
 *
 * @param reached the budget reached
 * @returns e.g. "Budget reached: 5 of 5 model calls. Continue with +5 model calls?"
 */
export function budgetSummary(reached: BudgetReached): string {
  const amount = (n: number) =>
    reached.kind === "costUsd" ? `$${n.toFixed(2)}` : Math.round(n).toLocaleString("en-US");
  const unit = (n: number) =>
    ({
      tokens: n === 1 ? " token" : " tokens",
      costUsd: "",
      modelCalls: n === 1 ? " model call" : " model calls",
      wallTimeSeconds: " s of running time",
    })[reached.kind];
  return `Budget reached: ${amount(reached.used)} of ${amount(reached.limit)}` +
    `${unit(reached.limit)}. Continue with +${amount(reached.extension)}${
      unit(reached.extension)
    }?`;
}

import assert from "node:assert/strict";
import type { RunSpend } from "@daedalus/storage";
import { budgetReached, budgetSummary } from "./budget_check.ts";

const spend = (overrides: Partial<RunSpend> = {}): RunSpend => ({
  inputTokens: 0,
  outputTokens: 0,
  totalTokens: 0,
  modelCalls: 0,
  runningSeconds: 0,
  extensions: { tokens: 0, costUsd: 0, modelCalls: 0, wallTimeSeconds: 0 },
  ...overrides,
});

Deno.test("budgetReached finds the first limit reached, counting the user's extensions", () => {
  const cases: Array<[string, Parameters<typeof budgetReached>[0], RunSpend, unknown]> = [
    ["no budget", {}, spend({ modelCalls: 99 }), null],
    [
      "under every limit",
      { budget: { modelCalls: 5, tokens: 100 } },
      spend({ modelCalls: 4 }),
      null,
    ],
    ["calls reached", { budget: { modelCalls: 5 } }, spend({ modelCalls: 5 }), {
      kind: "modelCalls",
      limit: 5,
      used: 5,
      extension: 5,
    }],
    [
      "an extension raises the limit",
      { budget: { modelCalls: 5 } },
      spend({
        modelCalls: 7,
        extensions: { tokens: 0, costUsd: 0, modelCalls: 5, wallTimeSeconds: 0 },
      }),
      null,
    ],
    ["tokens reached", { budget: { tokens: 1000 } }, spend({ totalTokens: 1200 }), {
      kind: "tokens",
      limit: 1000,
      used: 1200,
      extension: 1000,
    }],
    [
      "cost from the price",
      { budget: { costUsd: 1 }, price: { inputUsdPerMTok: 2, outputUsdPerMTok: 10 } },
      spend({ inputTokens: 250_000, outputTokens: 50_000 }),
      { kind: "costUsd", limit: 1, used: 1, extension: 1 },
    ],
    [
      "cost without a price is not counted",
      { budget: { costUsd: 0.01 } },
      spend({ inputTokens: 1e9 }),
      null,
    ],
    ["running time", { budget: { wallTimeSeconds: 60 } }, spend({ runningSeconds: 60.4 }), {
      kind: "wallTimeSeconds",
      limit: 60,
      used: 60,
      extension: 60,
    }],
  ];
  for (const [name, config, used, expected] of cases) {
    assert.deepEqual(budgetReached(config, used), expected, name);
  }
});

Deno.test("budgetSummary says what was reached and what continuing adds", () => {
  assert.equal(
    budgetSummary({ kind: "tokens", limit: 100_000, used: 100_250, extension: 100_000 }),
    "Budget reached: 100,250 of 100,000 tokens. Continue with +100,000 tokens?",
  );
  assert.equal(
    budgetSummary({ kind: "modelCalls", limit: 1, used: 1, extension: 1 }),
    "Budget reached: 1 of 1 model call. Continue with +1 model call?",
  );
  assert.equal(
    budgetSummary({ kind: "costUsd", limit: 2, used: 2.013, extension: 1 }),
    "Budget reached: $2.01 of $2.00. Continue with +$1.00?",
  );
});

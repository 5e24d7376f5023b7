import assert from "node:assert/strict";
import {
  EVENT_SCHEMA_VERSION,
  EventEnvelope,
  newId,
  PROVIDER_FAILURE_CATEGORIES,
  RUN_FAILURE_CLASSES,
  RUN_REASON_CODES,
  runFailureClass,
  type RunReasonCode,
  RunSummary,
} from "./mod.ts";

const ids = {
  threadId: newId("thread"),
  branchId: newId("branch"),
  turnId: newId("turn"),
  runId: newId("run"),
};

/** The class each code must have; a code missing here fails the coverage test below. */
const EXPECTED: Record<RunReasonCode, (typeof RUN_FAILURE_CLASSES)[number] | null> = {
  cancelled: null,
  runtime_shutdown: null,
  provider_cancelled: null,
  provider_network: "retryable",
  provider_rate_limit: "retryable",
  provider_server: "retryable",
  provider_timeout: "retryable",
  provider_protocol: "retryable",
  provider_unavailable: "retryable",
  provider_circuit_open: "retryable",
  provider_unknown: "retryable",
  runtime_interrupted: "retryable",
  context_budget_exceeded: "needs_user",
  budget_exceeded: "needs_user",
  model_output_limit: "needs_user",
  model_input_unavailable: "needs_user",
  model_not_configured: "needs_user",
  model_selection_required: "needs_user",
  provider_configuration_changed: "needs_user",
  model_configuration_changed: "needs_user",
  execution_policy_changed: "needs_user",
  tool_sandbox_unavailable: "needs_user",
  loop_detected: "needs_user",
  provider_authentication: "unrecoverable",
  provider_invalid_request: "unrecoverable",
  provider_context_overflow: "unrecoverable",
  protected_value: "unrecoverable",
  agent_error: "unrecoverable",
};

Deno.test("runFailureClass: every run reason code has the class the table says", () => {
  const wrong: string[] = [];
  for (const code of new Set(RUN_REASON_CODES)) {
    if (!Object.hasOwn(EXPECTED, code)) {
      wrong.push(`${code}: no expected class in this test (decide one, then add it)`);
      continue;
    }
    const actual = runFailureClass(code);
    if (actual !== EXPECTED[code]) wrong.push(`${code}: ${actual}, expected ${EXPECTED[code]}`);
  }
  assert.deepEqual(wrong, [], `reason codes with the wrong class:\n${wrong.join("\n")}`);
});

Deno.test("runFailureClass: the table names no code the protocol does not have", () => {
  const known = new Set<string>(RUN_REASON_CODES);
  const stale = Object.keys(EXPECTED).filter((code) => !known.has(code));
  assert.deepEqual(stale, [], `classes for codes that are not run reason codes: ${stale}`);
});

Deno.test("runFailureClass: a completed Run and an unknown code have no class", () => {
  assert.deepEqual(runFailureClass(null), null, "completed Run (reasonCode null)");
  assert.deepEqual(
    runFailureClass("from_a_newer_runtime" as RunReasonCode),
    null,
    "a code this build does not know is not guessed at",
  );
  assert.deepEqual(runFailureClass("toString" as RunReasonCode), null, "no prototype lookups");
});

Deno.test("runFailureClass: every provider category is classified, each class is used", () => {
  for (const category of PROVIDER_FAILURE_CATEGORIES) {
    const code = `provider_${category}` as const;
    assert(
      category === "cancelled" || runFailureClass(code) !== null,
      `${code} is a failure and needs a class`,
    );
  }
  const used = new Set(RUN_REASON_CODES.map(runFailureClass));
  for (const failureClass of RUN_FAILURE_CLASSES) {
    assert(used.has(failureClass), `class ${failureClass} is given to no reason code`);
  }
});

Deno.test("failureClass: required and nullable on RunSummary and run.settled", () => {
  const summary = {
    id: ids.runId,
    turnId: ids.turnId,
    threadId: ids.threadId,
    branchId: ids.branchId,
    providerId: "deepseek",
    modelId: "deepseek-chat",
    executionPolicy: "full_access",
    status: "failed",
    reasonCode: "provider_network",
    failureClass: "retryable",
    modelCalls: 1,
    compactions: 0,
    createdAt: "2026-01-01T00:00:00.000Z",
    startedAt: "2026-01-01T00:00:00.000Z",
    settledAt: "2026-01-01T00:00:01.000Z",
  };
  assert(RunSummary.safeParse(summary).success, "a classed failed Run validates");
  assert(
    RunSummary.safeParse({ ...summary, failureClass: null }).success,
    "null (completed or cancelled) validates",
  );
  const { failureClass: _, ...withoutClass } = summary;
  assert(!RunSummary.safeParse(withoutClass).success, "a Run without failureClass is refused");
  assert(
    !RunSummary.safeParse({ ...summary, failureClass: "maybe" }).success,
    "a class outside RUN_FAILURE_CLASSES is refused",
  );
  const settled = {
    seq: 1,
    schemaVersion: EVENT_SCHEMA_VERSION,
    ...ids,
    itemId: null,
    timestamp: "2026-01-01T00:00:01.000Z",
    type: "run.settled",
    payload: {
      turnId: ids.turnId,
      runId: ids.runId,
      status: "failed",
      reasonCode: "loop_detected",
      failureClass: "needs_user",
    },
  };
  const parsed = EventEnvelope.safeParse(settled);
  assert(parsed.success, `run.settled with a class validates: ${JSON.stringify(parsed)}`);
  const { failureClass: __, ...payloadWithout } = settled.payload;
  assert(
    !EventEnvelope.safeParse({ ...settled, payload: payloadWithout }).success,
    "run.settled without failureClass is refused",
  );
});

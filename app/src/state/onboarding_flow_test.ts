import assert from "node:assert/strict";
import {
  type FlowAction,
  parseOnboardingRecord,
  parseUserName,
  reduceFlow,
  shouldShowOnboarding,
  startFlow,
} from "./onboarding_flow.ts";

const run = (...actions: FlowAction[]) => actions.reduce(reduceFlow, startFlow());
const scripted = { providerId: "scripted", displayName: "Scripted", modelIds: ["scripted-model"] };

Deno.test("onboarding: Next and Back walk the three steps and stop at the ends", () => {
  assert.equal(run().step, "profile");
  assert.equal(run({ type: "back" }).step, "profile");
  assert.equal(run({ type: "next" }).step, "provider");
  assert.equal(run({ type: "next" }, { type: "next" }).step, "summary");
  assert.equal(run({ type: "next" }, { type: "next" }, { type: "next" }).step, "summary");
  assert.equal(run({ type: "next" }, { type: "next" }, { type: "back" }).step, "provider");
});

Deno.test("onboarding: connecting goes to the summary with the provider; skipping step 2 leaves none", () => {
  const connected = run({ type: "next" }, { type: "connected", provider: scripted });
  assert.equal(connected.step, "summary");
  assert.deepEqual(connected.provider, scripted);
  const skipped = run({ type: "skipStep" }, { type: "skipStep" });
  assert.equal(skipped.step, "summary");
  assert.equal(skipped.provider, null);
  assert.equal(skipped.outcome, null);
});

Deno.test("onboarding: Finish only from the summary; Skip setup from anywhere; then it is closed", () => {
  assert.equal(run({ type: "finish" }).outcome, null);
  const finished = run({ type: "next" }, { type: "next" }, { type: "finish" });
  assert.equal(finished.outcome, "finished");
  assert.equal(run({ type: "skipAll" }).outcome, "skipped");
  assert.equal(run({ type: "next" }, { type: "skipAll" }).outcome, "skipped");
  const after = reduceFlow(finished, { type: "back" });
  assert.equal(after, finished, "a closed wizard ignores actions");
});

Deno.test("onboarding: the record survives corrupt storage and validates the name", () => {
  assert.deepEqual(parseOnboardingRecord(null), { completed: false, userName: null });
  assert.deepEqual(parseOnboardingRecord("{oops"), { completed: false, userName: null });
  assert.deepEqual(parseOnboardingRecord('"yes"'), { completed: false, userName: null });
  assert.deepEqual(
    parseOnboardingRecord('{"completed":"true","userName":"   "}'),
    { completed: false, userName: null },
  );
  assert.deepEqual(
    parseOnboardingRecord('{"completed":true,"userName":"  Ana  "}'),
    { completed: true, userName: "Ana" },
  );
});

Deno.test("onboarding: names are 1–32 characters without control characters", () => {
  assert.equal(parseUserName("小明"), "小明");
  assert.equal(parseUserName("x".repeat(32)), "x".repeat(32));
  assert.equal(parseUserName("x".repeat(33)), null);
  assert.equal(parseUserName("a\nb"), null);
  assert.equal(parseUserName(""), null);
  assert.equal(parseUserName(7), null);
});

Deno.test("onboarding: shown only when not completed and no provider is connected", () => {
  const fresh = { completed: false, userName: null };
  assert.equal(shouldShowOnboarding(fresh, [{ configured: false }]), true);
  assert.equal(shouldShowOnboarding(fresh, []), true);
  assert.equal(shouldShowOnboarding(fresh, [{ configured: false }, { configured: true }]), false);
  assert.equal(shouldShowOnboarding({ completed: true, userName: null }, []), false);
});

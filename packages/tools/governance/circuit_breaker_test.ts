import assert from "node:assert/strict";
import {
  type BreakerAdmitted,
  type BreakerState,
  type CircuitBreakers,
  type CircuitBreakersOptions,
  createCircuitBreakers,
} from "./circuit_breaker.ts";
import type { BreakerOutcome } from "./failure_codes.ts";
import { GovernanceError } from "./governance_error.ts";

/** A fake clock: `tick(ms)` moves it; nothing in these tests waits. */
function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, tick: (ms: number) => void (now += ms) };
}

function breakersAt(options: CircuitBreakersOptions = {}) {
  const clock = fakeClock();
  return { clock, breakers: createCircuitBreakers({ now: clock.now, ...options }) };
}

function admitted(breakers: CircuitBreakers, key: string): BreakerAdmitted {
  const admission = breakers.admit(key);
  assert.ok(admission.admitted, `${key} should be admitted, got ${JSON.stringify(admission)}`);
  return admission;
}

function stateOf(breakers: CircuitBreakers, key: string): BreakerState | undefined {
  return breakers.snapshot().find((snapshot) => snapshot.key === key)?.state;
}

const OUTCOME: Record<string, BreakerOutcome> = { S: "success", F: "failure", I: "ignored" };
const STATE: Record<string, BreakerState> = { C: "closed", O: "open" };

Deno.test("closed → open: the state after each outcome, for sequences of calls", () => {
  // outcomes: S success, F failure, I ignored (a caller error); states: C closed, O open.
  const cases: {
    name: string;
    outcomes: string;
    states: string;
    options?: CircuitBreakersOptions;
  }[] = [
    { name: "three failures are below the 4-call minimum", outcomes: "FFF", states: "CCC" },
    { name: "four failures of four: 100 % over the minimum", outcomes: "FFFF", states: "CCCO" },
    { name: "two of four is 50 %: opens", outcomes: "SSFF", states: "CCCO" },
    { name: "alternating reaches 50 % at the fourth call", outcomes: "SFSF", states: "CCCO" },
    { name: "one of four is 25 %", outcomes: "FSSS", states: "CCCC" },
    { name: "two of five is 40 %, three of six is 50 %", outcomes: "SSSFFF", states: "CCCCCO" },
    {
      name: "ten successes then four failures is 40 %; the fifth makes 50 %",
      outcomes: "SSSSSSSSSSFFFFF",
      states: "CCCCCCCCCCCCCCO",
    },
    {
      name: "the window slides: old successes leave it (6S4F, then S keeps 40 %, F makes 50 %)",
      outcomes: "SSSSSSSSSSFFFFSF",
      states: "CCCCCCCCCCCCCCCO",
    },
    {
      name: "ignored outcomes neither fail nor dilute: IIIIFFF is three calls",
      outcomes: "IIIIFFF",
      states: "CCCCCCC",
    },
    {
      name: "ignored outcomes do not break a run of failures",
      outcomes: "SSSSSSSSSSFFFIIF",
      states: "CCCCCCCCCCCCCCCC",
      options: { failureRatePercent: 90 },
    },
    {
      name: "five failures in a row open whatever the rate (rate set to 90 %)",
      outcomes: "SSSSSSSSSSFFFFF",
      states: "CCCCCCCCCCCCCCO",
      options: { failureRatePercent: 90, windowCalls: 20 },
    },
    {
      name: "a success resets the run of failures (rate set to 90 %)",
      outcomes: "SSSSSSSSSSFFFFSFFFF",
      states: "CCCCCCCCCCCCCCCCCCC",
      options: { failureRatePercent: 90, windowCalls: 20 },
    },
  ];
  for (const { name, outcomes, states, options } of cases) {
    const { breakers } = breakersAt(options);
    const seen = [...outcomes].map((letter) => {
      const admission = breakers.admit("tool");
      if (!admission.admitted) return "refused";
      breakers.record(admission, OUTCOME[letter] as BreakerOutcome);
      return stateOf(breakers, "tool");
    });
    assert.deepEqual(seen, [...states].map((letter) => STATE[letter]), name);
  }
});

Deno.test("record returns the transition it caused, and null otherwise", () => {
  const { breakers } = breakersAt();
  for (let call = 0; call < 3; call++) {
    assert.equal(breakers.record(admitted(breakers, "t"), "failure"), null, `call ${call}`);
  }
  assert.deepEqual(breakers.record(admitted(breakers, "t"), "failure"), {
    key: "t",
    from: "closed",
    to: "open",
  });
});

Deno.test("open fails fast with circuit_open, the wait left, and a text naming the tool", () => {
  const { clock, breakers } = breakersAt();
  for (let call = 0; call < 4; call++) breakers.record(admitted(breakers, "grep"), "failure");
  assert.deepEqual(breakers.admit("grep"), {
    admitted: false,
    key: "grep",
    reasonCode: "circuit_open",
    retryAfterMs: 30_000,
    message: "circuit_open: grep failed too often and is paused by its circuit breaker; " +
      "try again in about 30 s, or carry on without it",
  });
  clock.tick(12_345);
  const later = breakers.admit("grep");
  assert.ok(!later.admitted);
  assert.equal(later.retryAfterMs, 17_655, "the wait counts down with the clock");
  assert.match(later.message, /about 18 s/);
  clock.tick(17_654);
  const last = breakers.admit("grep");
  assert.ok(!last.admitted, "1 ms before the 30 s are over it is still open");
  assert.equal(last.retryAfterMs, 1);
});

Deno.test("half-open after 30 s lets one probe through; its success closes with a fresh window", () => {
  const { clock, breakers } = breakersAt();
  for (let call = 0; call < 4; call++) breakers.record(admitted(breakers, "t"), "failure");
  clock.tick(30_000);
  assert.equal(stateOf(breakers, "t"), "half_open", "the snapshot shows the wait is over");
  const probe = admitted(breakers, "t");
  assert.equal(probe.probe, true, "the first call after the wait is the probe");
  const second = breakers.admit("t");
  assert.ok(!second.admitted, "a second caller while the probe runs fails fast");
  assert.equal(second.retryAfterMs, 30_000);
  assert.deepEqual(breakers.record(probe, "success"), {
    key: "t",
    from: "half_open",
    to: "closed",
  });
  const [snapshot] = breakers.snapshot();
  assert.deepEqual(snapshot, {
    key: "t",
    state: "closed",
    callsInWindow: 0,
    failuresInWindow: 0,
    consecutiveFailures: 0,
    openedAt: null,
    nextProbeAt: null,
    probeInFlight: false,
  });
  const next = admitted(breakers, "t");
  assert.equal(next.probe, false, "closed calls are not probes");
  breakers.record(next, "failure");
  assert.equal(stateOf(breakers, "t"), "closed", "one failure in a fresh window does not re-open");
});

Deno.test("a failed probe re-opens and restarts the 30 s from the failure", () => {
  const { clock, breakers } = breakersAt();
  for (let call = 0; call < 4; call++) breakers.record(admitted(breakers, "t"), "failure");
  clock.tick(30_000);
  const probe = admitted(breakers, "t");
  clock.tick(5_000);
  assert.deepEqual(breakers.record(probe, "failure"), { key: "t", from: "half_open", to: "open" });
  const refused = breakers.admit("t");
  assert.ok(!refused.admitted);
  assert.equal(refused.retryAfterMs, 30_000, "the wait restarts at the probe's failure");
  assert.equal(breakers.snapshot()[0]?.openedAt, 1_000_000 + 35_000);
  clock.tick(29_999);
  assert.ok(!breakers.admit("t").admitted);
  clock.tick(1);
  assert.equal(admitted(breakers, "t").probe, true, "30 s later the next probe passes");
});

Deno.test("an ignored probe (the call was wrong, not the tool) frees the slot for the next", () => {
  const { clock, breakers } = breakersAt();
  for (let call = 0; call < 4; call++) breakers.record(admitted(breakers, "t"), "failure");
  clock.tick(30_000);
  const probe = admitted(breakers, "t");
  assert.equal(breakers.record(probe, "ignored"), null);
  assert.equal(stateOf(breakers, "t"), "half_open");
  const next = admitted(breakers, "t");
  assert.equal(next.probe, true, "the next caller is the new probe");
  assert.ok(!breakers.admit("t").admitted, "and only it");
});

Deno.test("a probe that never reports loses its slot after the lease; its late outcome is ignored", () => {
  const { clock, breakers } = breakersAt({ probeLeaseMs: 60_000 });
  for (let call = 0; call < 4; call++) breakers.record(admitted(breakers, "t"), "failure");
  clock.tick(30_000);
  const lost = admitted(breakers, "t");
  clock.tick(59_999);
  const during = breakers.admit("t");
  assert.ok(!during.admitted);
  assert.equal(during.retryAfterMs, 1, "the wait is the lease left when shorter than 30 s");
  clock.tick(1);
  const replacement = admitted(breakers, "t");
  assert.equal(replacement.probe, true);
  assert.equal(breakers.record(lost, "success"), null, "the lost probe cannot close it");
  assert.equal(stateOf(breakers, "t"), "half_open");
  assert.deepEqual(breakers.record(replacement, "success"), {
    key: "t",
    from: "half_open",
    to: "closed",
  });
});

Deno.test("outcomes of calls admitted before a state change do not count", () => {
  const { clock, breakers } = breakersAt();
  const early = admitted(breakers, "t");
  const earlier = admitted(breakers, "t");
  for (let call = 0; call < 4; call++) breakers.record(admitted(breakers, "t"), "failure");
  assert.equal(breakers.record(early, "success"), null, "a late success while open");
  assert.equal(stateOf(breakers, "t"), "open");
  clock.tick(30_000);
  const probe = admitted(breakers, "t");
  assert.equal(breakers.record(early, "success"), null, "a late success while half-open");
  assert.equal(breakers.snapshot()[0]?.probeInFlight, true, "the probe still holds the slot");
  breakers.record(probe, "success");
  assert.equal(breakers.record(earlier, "failure"), null, "a late failure after closing");
  assert.equal(breakers.snapshot()[0]?.callsInWindow, 0);
  assert.equal(breakers.record(probe, "failure"), null, "a probe recorded twice");
  assert.equal(stateOf(breakers, "t"), "closed");
});

Deno.test("concurrent callers while the probe runs: exactly one passes, the rest fail fast", async () => {
  const { clock, breakers } = breakersAt();
  for (let call = 0; call < 4; call++) breakers.record(admitted(breakers, "mcp:x"), "failure");
  clock.tick(30_000);
  let finishProbe: (outcome: BreakerOutcome) => void = () => {};
  const probeDone = new Promise<BreakerOutcome>((resolve) => (finishProbe = resolve));
  const ran: number[] = [];
  const caller = async (id: number): Promise<string> => {
    await Promise.resolve(); // every caller arrives from its own task
    const admission = breakers.admit("mcp:x");
    if (!admission.admitted) return `refused ${admission.reasonCode}`;
    ran.push(id);
    breakers.record(admission, await probeDone);
    return admission.probe ? "probe" : "plain";
  };
  const callers = Array.from({ length: 8 }, (_, id) => caller(id));
  await Promise.resolve();
  await Promise.resolve();
  finishProbe("success");
  const answers = await Promise.all(callers);
  assert.equal(answers.filter((answer) => answer === "probe").length, 1, answers.join(", "));
  assert.equal(answers.filter((answer) => answer === "refused circuit_open").length, 7);
  assert.deepEqual(ran, [0], "the first caller was the probe");
  assert.equal(stateOf(breakers, "mcp:x"), "closed");
  const after = await Promise.all([caller(8), caller(9)]);
  assert.deepEqual(after, ["plain", "plain"], "once closed, concurrent calls pass");
});

Deno.test("each key has its own breaker", () => {
  const { breakers } = breakersAt();
  for (let call = 0; call < 4; call++) breakers.record(admitted(breakers, "bad"), "failure");
  breakers.record(admitted(breakers, "good"), "success");
  assert.ok(!breakers.admit("bad").admitted);
  assert.equal(admitted(breakers, "good").probe, false);
  assert.deepEqual(
    breakers.snapshot().map(({ key, state }) => `${key}:${state}`),
    ["bad:open", "good:closed"],
    "sorted by key",
  );
});

Deno.test("snapshot: counts, opened at, next probe at, probe in flight", () => {
  const { clock, breakers } = breakersAt();
  breakers.record(admitted(breakers, "t"), "success");
  breakers.record(admitted(breakers, "t"), "failure");
  breakers.record(admitted(breakers, "t"), "failure");
  assert.deepEqual(breakers.snapshot()[0], {
    key: "t",
    state: "closed",
    callsInWindow: 3,
    failuresInWindow: 2,
    consecutiveFailures: 2,
    openedAt: null,
    nextProbeAt: null,
    probeInFlight: false,
  });
  clock.tick(100);
  breakers.record(admitted(breakers, "t"), "failure");
  const opened = 1_000_100;
  assert.deepEqual(breakers.snapshot()[0], {
    key: "t",
    state: "open",
    callsInWindow: 4,
    failuresInWindow: 3,
    consecutiveFailures: 3,
    openedAt: opened,
    nextProbeAt: opened + 30_000,
    probeInFlight: false,
  });
  clock.tick(30_000);
  admitted(breakers, "t");
  assert.deepEqual(breakers.snapshot()[0], {
    key: "t",
    state: "half_open",
    callsInWindow: 4,
    failuresInWindow: 3,
    consecutiveFailures: 3,
    openedAt: opened,
    nextProbeAt: opened + 30_000 + 10 * 60_000,
    probeInFlight: true,
  });
});

Deno.test("the breaker count is capped: the least recently used closed one goes first", () => {
  const { breakers } = breakersAt({ maxKeys: 2 });
  admitted(breakers, "a");
  admitted(breakers, "b");
  admitted(breakers, "a"); // a is now the most recently used
  admitted(breakers, "c");
  assert.deepEqual(breakers.snapshot().map((s) => s.key), ["a", "c"]);
  for (let call = 0; call < 4; call++) breakers.record(admitted(breakers, "a"), "failure");
  admitted(breakers, "c");
  admitted(breakers, "d");
  assert.deepEqual(breakers.snapshot().map((s) => s.key), ["a", "d"], "open a is kept");
  assert.ok(!breakers.admit("a").admitted, "and still guards");
});

Deno.test("bad options, keys and outcomes are refused with stable codes", () => {
  const options: [CircuitBreakersOptions, RegExp][] = [
    [{ windowCalls: 0 }, /windowCalls must be an integer from 1 to 1000, got 0/],
    [{ windowCalls: 2.5 }, /windowCalls/],
    [{ minCalls: 11 }, /minCalls must be an integer from 1 to 10, got 11/],
    [{ windowCalls: 3, minCalls: 4 }, /minCalls must be an integer from 1 to 3/],
    [{ failureRatePercent: 0 }, /failureRatePercent/],
    [{ failureRatePercent: 101 }, /failureRatePercent/],
    [{ consecutiveFailures: -1 }, /consecutiveFailures/],
    [{ openMs: Number.NaN }, /openMs .* got NaN/],
    [{ probeLeaseMs: 86_400_001 }, /probeLeaseMs/],
    [{ maxKeys: "9" as unknown as number }, /maxKeys .* got "9"/],
    [{ now: 5 as unknown as () => number }, /now must be a function, got 5/],
    [null as unknown as CircuitBreakersOptions, /must be an object/],
  ];
  for (const [option, message] of options) {
    assert.throws(
      () => createCircuitBreakers(option),
      (error: unknown) =>
        error instanceof GovernanceError && error.code === "breaker_option_invalid" &&
        message.test(error.message),
      `options ${JSON.stringify(option)}`,
    );
  }
  const windowOfThree = createCircuitBreakers({ windowCalls: 3 });
  for (let call = 0; call < 3; call++) {
    const admission = windowOfThree.admit("t");
    assert.ok(admission.admitted);
    windowOfThree.record(admission, "failure");
  }
  assert.ok(!windowOfThree.admit("t").admitted, "the 4-call minimum shrinks to a smaller window");

  const { breakers } = breakersAt();
  for (const key of ["", "k".repeat(257), 7 as unknown as string]) {
    assert.throws(
      () => breakers.admit(key),
      (error: unknown) => error instanceof GovernanceError && error.code === "breaker_key_invalid",
      `key ${JSON.stringify(key).slice(0, 20)}`,
    );
  }
  assert.equal(admitted(breakers, "k".repeat(256)).probe, false, "256 characters is fine");
  assert.throws(
    () => breakers.record(admitted(breakers, "t"), "broken" as BreakerOutcome),
    (error: unknown) =>
      error instanceof GovernanceError && error.code === "breaker_outcome_invalid" &&
      /got "broken"/.test(error.message),
  );
  for (let call = 0; call < 4; call++) breakers.record(admitted(breakers, "shut"), "failure");
  const refused = breakers.admit("shut");
  for (const admission of [refused, null, { admitted: true, key: "shut" }]) {
    assert.throws(
      () => breakers.record(admission as BreakerAdmitted, "success"),
      (error: unknown) =>
        error instanceof GovernanceError && error.code === "breaker_admission_invalid",
      `recording ${JSON.stringify(admission)?.slice(0, 40)}`,
    );
  }
  assert.equal(stateOf(breakers, "shut"), "open", "a refusal recorded cannot close a breaker");
});

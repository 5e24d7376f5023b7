import assert from "node:assert/strict";
import type { BreakerSnapshot } from "@daedalus/client";
import { fakeCall, rpcFailure } from "./_fake_call.ts";
import { breakerHealth, emptyBreakerHealth, loadBreakers } from "./breaker_health.ts";

const OPEN: BreakerSnapshot = {
  key: "provider:scripted",
  kind: "provider",
  state: "open",
  recentCalls: 4,
  recentFailures: 4,
  consecutiveFailures: 4,
  openedAt: "2026-12-01T12:00:00.000Z",
  retryAt: "2026-12-01T12:00:30.000Z",
};

Deno.test("breaker health: a read lands the list; a failed read keeps it with the reason", async () => {
  breakerHealth.value = emptyBreakerHealth();
  const ok = fakeCall({ "breaker.list": () => ({ breakers: [OPEN] }) });
  await loadBreakers(ok.call);
  assert.deepEqual(ok.calls, [{ method: "breaker.list", params: {} }]);
  assert.equal(breakerHealth.value.status, "ready");
  assert.deepEqual(breakerHealth.value.breakers, [OPEN]);
  await loadBreakers(
    fakeCall({
      "breaker.list": () => {
        throw rpcFailure("internal_error", "boom");
      },
    }).call,
  );
  assert.equal(breakerHealth.value.status, "failed");
  assert.equal(breakerHealth.value.error?.code, "internal_error");
  assert.deepEqual(breakerHealth.value.breakers, [OPEN], "the last list stays in sight");
  await loadBreakers(ok.call);
  assert.equal(breakerHealth.value.error, null, "a success clears the failure");
});

Deno.test("breaker health: an older, slower answer never replaces a newer one", async () => {
  breakerHealth.value = emptyBreakerHealth();
  let releaseSlow: (value: unknown) => void = () => {};
  const slow = fakeCall({
    "breaker.list": () => new Promise((resolve) => (releaseSlow = resolve)),
  });
  const first = loadBreakers(slow.call);
  assert.equal(breakerHealth.value.status, "loading");
  await loadBreakers(fakeCall({ "breaker.list": () => ({ breakers: [OPEN] }) }).call);
  releaseSlow({ breakers: [] });
  await first;
  assert.deepEqual(breakerHealth.value.breakers, [OPEN], "the stale empty list was dropped");
  assert.equal(breakerHealth.value.status, "ready");
});

import assert from "node:assert/strict";
import { RestartPolicy } from "./restart_policy.ts";
import {
  MCP_RESTART_BACKOFF_MAX_MS,
  MCP_RESTART_BACKOFF_MIN_MS,
  MCP_RESTARTS_PER_MINUTE_MAX,
} from "../limits.ts";

function clocked() {
  const clock = { at: 0 };
  return { clock, policy: new RestartPolicy(MCP_RESTART_BACKOFF_MIN_MS, () => clock.at) };
}

Deno.test("the wait doubles with each failure in a row and is capped", () => {
  const { policy } = clocked();
  const waits: number[] = [];
  for (let i = 0; i < 12; i++) {
    const wait = policy.afterFailure();
    assert.ok(wait !== null, `failure ${i + 1} may restart (no restart happened yet)`);
    waits.push(wait);
  }
  assert.deepEqual(
    waits.slice(0, 4),
    [500, 1000, 2000, 4000].map((ms) => ms * MCP_RESTART_BACKOFF_MIN_MS / 500),
  );
  assert.equal(Math.max(...waits), MCP_RESTART_BACKOFF_MAX_MS, "capped");
  policy.ready();
  assert.equal(policy.afterFailure(), MCP_RESTART_BACKOFF_MIN_MS, "ready starts afresh");
});

Deno.test("at most N restarts within any minute; an older one no longer counts", () => {
  const { clock, policy } = clocked();
  for (let i = 0; i < MCP_RESTARTS_PER_MINUTE_MAX; i++) {
    assert.notEqual(policy.afterFailure(), null, `restart ${i + 1}`);
    policy.restarted();
    clock.at += 1_000;
  }
  assert.equal(policy.afterFailure(), null, "the limit is reached");
  assert.equal(policy.recentRestarts, MCP_RESTARTS_PER_MINUTE_MAX);
  clock.at = 60_001; // the first restart (at 0) is more than a minute old
  assert.notEqual(policy.afterFailure(), null, "one slot is free again");
  policy.reset();
  assert.equal(policy.recentRestarts, 0, "reset forgets");
  assert.equal(policy.afterFailure(), MCP_RESTART_BACKOFF_MIN_MS);
});

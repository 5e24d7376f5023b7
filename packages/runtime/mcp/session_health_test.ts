import assert from "node:assert/strict";
import { ErrorCode, McpError, StreamableHTTPError } from "./_sdk.ts";
import { pingFailure, type PingTimers, SessionPinger } from "./session_health.ts";

/** Timers a test fires by hand: each `fire()` runs the pending timer (there is at most one). */
class FakeTimers implements PingTimers {
  pending: { fn: () => void; ms: number; id: number } | null = null;
  cleared = 0;
  /** The pending timer's delay, or null. */
  pendingMs(): number | null {
    return this.pending?.ms ?? null;
  }
  #next = 1;
  set(fn: () => void, ms: number): unknown {
    assert.equal(this.pending, null, "a second timer while one is pending: pings would pile up");
    this.pending = { fn, ms, id: this.#next++ };
    return this.pending.id;
  }
  clear(handle: unknown): void {
    if (this.pending?.id === handle) this.pending = null;
    this.cleared++;
  }
  async fire(): Promise<void> {
    const timer = this.pending;
    assert.ok(timer, "no timer pending");
    this.pending = null;
    timer.fn();
    // Let the ping's promise settle.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}

function pinger(ping: (timeoutMs: number) => Promise<unknown>) {
  const timers = new FakeTimers();
  const failures: unknown[] = [];
  const timeouts: number[] = [];
  const subject = new SessionPinger({
    ping: (timeoutMs) => {
      timeouts.push(timeoutMs);
      return ping(timeoutMs);
    },
    onFailure: (error) => failures.push(error),
    intervalMs: 30_000,
    timeoutMs: 5_000,
    timers,
  });
  return { subject, timers, failures, timeouts };
}

Deno.test("session pinger: pings one interval after each answer, with its timeout", async () => {
  const { subject, timers, failures, timeouts } = pinger(() => Promise.resolve({}));
  assert.equal(timers.pending, null, "nothing before start");
  subject.start();
  subject.start(); // twice: still one timer (FakeTimers asserts it)
  assert.equal(timers.pendingMs(), 30_000);
  await timers.fire();
  await timers.fire();
  assert.deepEqual(timeouts, [5_000, 5_000]);
  assert.equal(timers.pendingMs(), 30_000, "the next ping is scheduled after the answer");
  assert.deepEqual(failures, []);
  assert.equal(subject.running, true);
});

Deno.test("session pinger: the first failure is told once and pinging stops", async () => {
  const error = new Error("connection refused");
  let answers = 0;
  const { subject, timers, failures } = pinger(() => {
    answers++;
    return answers === 1 ? Promise.resolve({}) : Promise.reject(error);
  });
  subject.start();
  await timers.fire();
  await timers.fire();
  assert.deepEqual(failures, [error]);
  assert.equal(timers.pending, null, "no ping after a failure");
  assert.equal(subject.running, false);
});

Deno.test("session pinger: a ping still on its way when stopped is ignored", async () => {
  let reject: (error: Error) => void = () => {};
  const { subject, timers, failures } = pinger(() =>
    new Promise((_, no) => {
      reject = no;
    })
  );
  subject.start();
  await timers.fire();
  subject.stop();
  reject(new Error("too late"));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  assert.deepEqual(failures, [], "a stopped pinger tells nobody");
  assert.equal(timers.pending, null);
  // Stopping clears a pending timer too.
  subject.start();
  assert.ok(timers.pending);
  subject.stop();
  assert.equal(timers.pending, null);
});

Deno.test("session pinger: a failed ping reads as expired session, timeout, status or gone", () => {
  const cases: [string, unknown, boolean, RegExp][] = [
    ["404", new StreamableHTTPError(404, "Session not found"), true, /session expired.*404/],
    [
      "timeout",
      new McpError(ErrorCode.RequestTimeout, "Request timed out"),
      false,
      /no answer to ping within 5000 ms/,
    ],
    ["500", new StreamableHTTPError(500, "boom"), false, /ping refused with HTTP 500/],
    ["400", new StreamableHTTPError(400, "bad session"), false, /HTTP 400/],
    [
      "refused",
      new TypeError("error sending request: Connection refused"),
      false,
      /did not answer ping: error sending request: Connection refused/,
    ],
    ["no status", new StreamableHTTPError(-1, "Unexpected content type"), false, /did not answer/],
    ["not an error", "weird", false, /did not answer ping: weird/],
  ];
  for (const [name, error, expired, message] of cases) {
    const failure = pingFailure(error, 5_000);
    assert.equal(failure.sessionExpired, expired, `${name}: sessionExpired`);
    assert.match(failure.message, message, `${name}: ${failure.message}`);
  }
});

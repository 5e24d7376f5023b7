/**
 * A tool circuit breaker as a user gets it: the scripted fixture with the shipped flags and
 * its `flaky` test tool (FIXTURE_FLAKY_TOOL=1), and the breakers' open period shortened with
 * DAEDALUS_BREAKER_OPEN_MS. A tool that fails with a code the breaker counts (`tool_failed`)
 * opens its breaker at the issue's threshold (4 calls, all failed: ≥ 50 % of at least 4);
 * while open, even a call that would succeed fails fast with `circuit_open`, the model is
 * told which tool is paused and the tool does not run; `breaker.list` shows it open; after
 * the open period it is half-open and one successful probe closes it.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { BreakerSnapshot, JournalEvent } from "@daedalus/client";
import { makeTempHome, startFixture } from "./_harness.ts";
import { delay, openClient, turnParams } from "./_clients.ts";

/** The open period the runtime is started with: long enough to make a call while open. */
const OPEN_MS = 3_000;

/** Failed calls that open a breaker under the shipped thresholds (issue 14: at least 4). */
const OPENING_FAILURES = 4;

Deno.test("spawned: a tool that always fails opens its breaker, fails fast while open, and a successful probe closes it", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home, {
    FIXTURE_FLAKY_TOOL: "1",
    DAEDALUS_BREAKER_OPEN_MS: String(OPEN_MS),
  });
  await using recording = await openClient(server.url, await server.token());
  const { client } = recording;
  const { thread } = await client.call("thread.create", { title: "breaker" });

  /** One turn that calls `flaky` once: how it settled and the call's result. */
  const callFlaky = async (fail: boolean, attempt: number) => {
    const content = `call: flaky ${JSON.stringify({ fail, attempt })}`;
    const { runId } = await client.call("turn.start", turnParams(thread.id, content));
    const settled = await recording.waitForEvent(
      `the run of attempt ${attempt} to settle`,
      (event) => event.type === "run.settled" && event.runId === runId,
    );
    const results = recording.events.filter((e: JournalEvent) =>
      e.type === "item.completed" && e.runId === runId &&
      (e.payload as { item: { kind: string } }).item.kind === "tool_result"
    ).map((e) => (e.payload as { item: { content: string; data?: { errorCode?: string } } }).item);
    assert.equal(results.length, 1, `attempt ${attempt}: one tool result`);
    return {
      status: String(settled.payload.status),
      code: results[0]!.data?.errorCode ?? "ok",
      content: results[0]!.content,
    };
  };
  const breaker = async (): Promise<BreakerSnapshot | undefined> =>
    (await client.call("breaker.list", {})).breakers.find((b: BreakerSnapshot) =>
      b.kind === "tool" && b.key === "flaky"
    );

  for (let attempt = 1; attempt <= OPENING_FAILURES; attempt++) {
    const failed = await callFlaky(true, attempt);
    assert.deepEqual(
      [failed.status, failed.code],
      ["completed", "tool_failed"],
      `attempt ${attempt} fails as the tool's own fault, the model reads it: ${failed.content}`,
    );
    assert.match(failed.content, /the flaky service is down/, `attempt ${attempt} ran the tool`);
    const state = await breaker();
    const expected = attempt < OPENING_FAILURES ? "closed" : "open";
    assert.equal(state?.state, expected, `after ${attempt} failures: ${JSON.stringify(state)}`);
    assert.equal(state?.consecutiveFailures, attempt, `after ${attempt} failures`);
  }

  const open = await breaker();
  assert.ok(open?.openedAt && open.retryAt, `an open breaker says when: ${JSON.stringify(open)}`);
  const waitMs = Date.parse(open.retryAt) - Date.parse(open.openedAt);
  assert.ok(
    Math.abs(waitMs - OPEN_MS) <= 1_000,
    `DAEDALUS_BREAKER_OPEN_MS sets the wait: ${waitMs} ms`,
  );

  const fastFail = await callFlaky(false, OPENING_FAILURES + 1);
  assert.deepEqual(
    [fastFail.status, fastFail.code],
    ["completed", "circuit_open"],
    `a call while open fails fast: ${fastFail.content}`,
  );
  assert.match(fastFail.content, /flaky/, "the model is told which tool is unavailable");
  assert.doesNotMatch(fastFail.content, /flaky: ok/, "the tool did not run");
  assert.equal((await breaker())?.state, "open", "a refused call is no probe");

  await delay(Math.max(0, Date.parse(open.retryAt) - Date.now()) + 100);
  assert.equal((await breaker())?.state, "half_open", "the wait is over: the next call probes");
  const probe = await callFlaky(false, OPENING_FAILURES + 2);
  assert.deepEqual([probe.status, probe.code], ["completed", "ok"], probe.content);
  assert.match(probe.content, /flaky: ok \(attempt 6\)/, "the probe ran the tool");
  const closed = await breaker();
  assert.deepEqual(
    [closed?.state, closed?.consecutiveFailures, closed?.openedAt, closed?.retryAt],
    ["closed", 0, null, null],
    `a successful probe closes the breaker: ${JSON.stringify(closed)}`,
  );
  const after = await callFlaky(false, OPENING_FAILURES + 3);
  assert.equal(after.code, "ok", "calls run again");
});

import assert from "node:assert/strict";
import { fakeCall, rpcFailure } from "./_fake_call.ts";
import {
  compactingThread,
  compactNow,
  compactOutcome,
  contextPercent,
  contextUse,
  loadContextUse,
} from "./context_meter.ts";
import { lastError } from "./store.ts";

const THREAD = `thread_${"1".repeat(32)}`;
const OTHER = `thread_${"2".repeat(32)}`;

Deno.test("context meter: the share of the window in whole percent, bounded to 0–100", () => {
  const cases: [number, number, number][] = [
    [0, 1_000, 0],
    [380, 1_000, 38],
    [384, 1_000, 38],
    [385, 1_000, 39],
    [1_000, 1_000, 100],
    [5_000, 1_000, 100],
    [10, 0, 0],
  ];
  for (const [inputTokens, contextWindow, expected] of cases) {
    assert.equal(
      contextPercent({ inputTokens, contextWindow }),
      expected,
      `${inputTokens} of ${contextWindow}`,
    );
  }
});

Deno.test("context meter: load fills the thread's use; another thread's clears what was shown", async () => {
  const use = { runId: "run_1", inputTokens: 38_000, estimated: false, contextWindow: 100_000 };
  const ok = fakeCall({ "thread.context": () => ({ threadId: THREAD, use }) });
  await loadContextUse(THREAD, ok.call);
  assert.deepEqual(contextUse.value, { threadId: THREAD, use });
  assert.deepEqual(ok.calls, [{ method: "thread.context", params: { threadId: THREAD } }]);

  compactOutcome.value = { threadId: THREAD, compacted: true, tokensBefore: 9, tokensAfter: 1 };
  const failing = fakeCall({
    "thread.context": () => {
      throw rpcFailure("thread_not_found", "gone");
    },
  });
  await loadContextUse(OTHER, failing.call);
  assert.equal(contextUse.value, null, "the other thread's figure is not shown for this one");
  assert.equal(compactOutcome.value, null, "nor its compaction outcome");
});

Deno.test("compact now: one fresh clientRequestId per click, the outcome kept, a refusal reported", async () => {
  const answers = fakeCall({
    "thread.compact": (params) => ({
      threadId: params.threadId,
      compacted: true,
      compaction: {
        throughTurnId: "turn_1",
        summary: "s",
        tokensBefore: 12_000,
        tokensAfter: 300,
        providerId: "p",
        modelId: "m",
      },
      event: null,
    }),
  });
  const outcome = await compactNow(THREAD, answers.call);
  assert.deepEqual(outcome, {
    threadId: THREAD,
    compacted: true,
    tokensBefore: 12_000,
    tokensAfter: 300,
  });
  assert.deepEqual(compactOutcome.value, outcome);
  assert.equal(compactingThread.value, null, "no longer busy");
  await compactNow(THREAD, answers.call);
  const ids = answers.calls.map((c) => c.params.clientRequestId);
  assert.equal(ids.length, 2);
  assert.notEqual(ids[0], ids[1], "a second click is a second request");

  const empty = fakeCall({
    "thread.compact": () => ({ threadId: THREAD, compacted: false, compaction: null, event: null }),
  });
  assert.equal((await compactNow(THREAD, empty.call))?.compacted, false);

  lastError.value = null;
  const refused = fakeCall({
    "thread.compact": () => {
      throw rpcFailure("turn_active", "A Run of this thread is queued, running or waiting");
    },
  });
  assert.equal(await compactNow(THREAD, refused.call), null);
  assert.match(String(lastError.value), /queued, running or waiting/);
  assert.equal(compactingThread.value, null);
});

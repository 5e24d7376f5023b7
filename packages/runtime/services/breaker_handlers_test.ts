/**
 * `breaker.list` over a real runtime core (real store, dispatcher and loop): a provider
 * whose calls keep failing opens its breaker, the next Run fails fast without a request,
 * and a successful probe after the wait closes it; a tool that always fails shows its
 * own breaker open.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import type { JournalEvent } from "@daedalus/protocol";
import { createCircuitBreakers, defineTool, ToolError } from "@daedalus/tools";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider, type ScriptedResponse } from "../providers/scripted.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled } from "../_test_wait.ts";

const broken = defineTool({
  id: "broken",
  description: "Always fails",
  params: z.object({ n: z.number() }),
  mutating: false,
  risk: "read",
  run: () => {
    throw new ToolError("tool_failed", "broken is down");
  },
});

async function world(script: () => ScriptedResponse) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-breakers-" });
  let now = Date.parse("2026-12-01T10:00:00.000Z");
  const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
  const provider = createScriptedProvider({ script });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    tools: [broken],
    providers: [provider],
    toolBreakers: createCircuitBreakers({ now: clock.now }),
    providerBreakers: createCircuitBreakers({ now: clock.now }),
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  const call = dispatchOn(core);
  const { thread } = await call("thread.create", { title: "breakers" });
  const turn = async () => {
    const { runId } = await call("turn.start", {
      threadId: thread.id,
      content: "go",
      providerId: "scripted",
      modelId: "scripted-model",
      executionPolicy: "full_access",
    });
    await runSettled(events, runId);
    const settled = events.find((e) => e.type === "run.settled" && e.runId === runId);
    return settled?.payload as { status: string; reasonCode: string | null };
  };
  return {
    clock,
    provider,
    turn,
    list: async () => (await call("breaker.list", {})).breakers,
    async [Symbol.asyncDispose]() {
      await core.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

Deno.test("breaker.list: a failing provider opens its breaker, fails fast, and a good probe closes it", async () => {
  let healthy = false;
  await using w = await world(() =>
    healthy ? { text: ["back"] } : { error: { category: "server", message: "503 overloaded" } }
  );
  assert.deepEqual(await w.list(), [], "no breaker before the first call");
  // The default thresholds: at least 4 calls in the window, half of them failed.
  for (let run = 1; run <= 4; run++) {
    const settled = await w.turn();
    assert.deepEqual(
      [settled.status, settled.reasonCode],
      ["failed", "provider_server"],
      `run ${run}`,
    );
  }
  const [open] = await w.list();
  assert.deepEqual(
    { ...open, openedAt: typeof open.openedAt, retryAt: typeof open.retryAt },
    {
      key: "provider:scripted",
      kind: "provider",
      state: "open",
      recentCalls: 4,
      recentFailures: 4,
      consecutiveFailures: 4,
      openedAt: "string",
      retryAt: "string",
    },
  );
  assert.equal(Date.parse(open.retryAt) - Date.parse(open.openedAt), 30_000, "a 30 s wait");

  const requests = w.provider.requests.length;
  const fast = await w.turn();
  assert.deepEqual([fast.status, fast.reasonCode], ["failed", "provider_circuit_open"]);
  assert.equal(w.provider.requests.length, requests, "an open breaker sends no request");

  w.clock.advance(30_000);
  assert.equal((await w.list())[0].state, "half_open", "the wait is over: the next call probes");
  healthy = true;
  const probe = await w.turn();
  assert.deepEqual([probe.status, probe.reasonCode], ["completed", null]);
  const [closed] = await w.list();
  assert.deepEqual(
    [closed.state, closed.recentCalls, closed.openedAt, closed.retryAt],
    ["closed", 0, null, null],
    "a successful probe closes the breaker with a fresh window",
  );
});

Deno.test("breaker.list: a tool that always fails shows its breaker open, beside the provider's", async () => {
  let step = 0;
  await using w = await world(() => {
    const n = step++;
    return n < 5 ? { toolCalls: [{ name: "broken", arguments: { n } }] } : { text: ["gave up"] };
  });
  const settled = await w.turn();
  assert.equal(settled.status, "completed");
  const breakers = await w.list();
  assert.deepEqual(
    breakers.map((b: { key: string; kind: string; state: string }) => [b.key, b.kind, b.state]),
    [["broken", "tool", "open"], ["provider:scripted", "provider", "closed"]],
    "tools first, then providers; the provider answered every call",
  );
  assert.equal(breakers[0].recentFailures, 4, "opened on the 4th failure of 4 calls");
});

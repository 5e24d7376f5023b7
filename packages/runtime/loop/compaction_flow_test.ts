/**
 * Compaction control, in process: config.yaml's threshold, a thread's own switch (off →
 * `context_budget_exceeded` with a way on), and `thread.compact` (later Runs see the
 * summary instead of the turns it covers; refused while a Run is active; a turn.start
 * during it waits for it).
 */
import assert from "node:assert/strict";
import { z } from "zod";
import type { JournalEvent } from "@daedalus/protocol";
import { defineTool } from "@daedalus/tools";
import { openRuntimeCore, type RuntimeCoreOptions } from "../runtime_core.ts";
import {
  createScriptedProvider,
  type Script,
  type ScriptedProvider,
} from "../providers/scripted.ts";
import { messageText, type ProviderRequest } from "../providers/provider.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled } from "../_test_wait.ts";
import { RpcError } from "@daedalus/protocol";
import { CONTEXT_BUDGET_MESSAGES } from "./run_context.ts";

const dump = defineTool({
  id: "dump",
  description: "Returns 6,000 characters",
  params: z.object({}),
  mutating: false,
  risk: "read",
  // Each result differs (loop detection stops a Run that gets the same result again and again).
  run: (_params, context) => Promise.resolve({ content: `${context.itemId} ` + "z".repeat(6_000) }),
});

// deno-lint-ignore no-explicit-any
type Call = (method: string, params: unknown) => Promise<any>;

interface Harness {
  call: Call;
  events: JournalEvent[];
  provider: ScriptedProvider;
  home: string;
  turn: (threadId: string, content: string) => Promise<JournalEvent>;
}

async function withRuntime(
  script: Script,
  options: Partial<RuntimeCoreOptions>,
  fn: (h: Harness) => Promise<void>,
  configText?: string,
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-compaction-" });
  if (configText !== undefined) await Deno.writeTextFile(`${home}/config.yaml`, configText);
  const provider = createScriptedProvider({ script });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    providers: [provider],
    tools: [dump],
    threadTitles: false,
    memoryRefinement: false,
    ...options,
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  const call = dispatchOn(core);
  const turn = async (threadId: string, content: string) => {
    const { runId } = await call("turn.start", {
      threadId,
      content,
      providerId: "scripted",
      modelId: "scripted-model",
      executionPolicy: "full_access",
    });
    return await runSettled(events, runId);
  };
  try {
    await fn({ call, events, provider, home, turn });
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

const isSummary = (request: ProviderRequest) => request.tools.length === 0;
const texts = (request: ProviderRequest) => request.messages.map((m) => messageText(m.content));

/** Dumps `count` times, then answers; summary calls answer with a summary. */
function dumping(count: number): Script {
  let dumps = 0;
  return (request) => {
    if (isSummary(request)) return { text: ["Dumped outputs."] };
    if (dumps++ < count) return { toolCalls: [{ name: "dump", arguments: {} }] };
    return { text: ["done"] };
  };
}

function frozenCompaction(events: JournalEvent[], runId: string): unknown {
  const created = events.find((e) =>
    e.type === "run.state_changed" && e.runId === runId && e.payload.runConfig !== undefined
  );
  return (created?.payload as { runConfig?: { compaction?: unknown } }).runConfig?.compaction;
}

const WINDOW = 50_000;

Deno.test("config.yaml's threshold decides when a Run compacts, and the Run freezes it", async () => {
  const compressions: Record<string, number> = {};
  for (const threshold of [0.9, 0.5]) {
    await withRuntime(
      dumping(5),
      { contextWindow: () => WINDOW },
      async ({ call, events, turn }) => {
        const { thread } = await call("thread.create", { title: "t" });
        const settled = await turn(thread.id, "go");
        assert.equal(settled.payload.status, "completed", String(settled.payload.reasonCode));
        const estimates = events.filter((e) =>
          e.type === "model.input_prepared" && e.payload.purpose === "execution"
        ).map((e) =>
          (e.payload.stepInput as { estimatedInputTokens: number }).estimatedInputTokens
        );
        assert.ok(Math.max(...estimates) < WINDOW * 0.9, `inputs ${estimates}`);
        compressions[threshold] = events.filter((e) =>
          e.type === "model.input_prepared" && e.payload.purpose === "compression"
        ).length;
        assert.deepEqual(frozenCompaction(events, settled.runId!), {
          threshold,
          enabled: true,
          source: "config",
        });
      },
      `version: 1\ncompaction:\n  threshold: ${threshold}\n`,
    );
  }
  assert.equal(compressions[0.9], 0, "30,000 characters of output stay under 90 % of 50,000");
  assert.ok(compressions[0.5]! >= 1, "at 0.5 the same Run compacts");
});

Deno.test("with compaction off for the thread, a Run that no longer fits fails and says how to go on", async () => {
  await withRuntime(
    dumping(8),
    { contextWindow: () => WINDOW },
    async ({ call, events, turn }) => {
      const { thread } = await call("thread.create", { title: "t" });
      const updated = await call("thread.update_settings", {
        threadId: thread.id,
        compaction: { enabled: false },
      });
      assert.deepEqual(updated.settings, { agentId: "build", compaction: { enabled: false } });
      assert.equal(updated.event?.type, "thread.settings_changed");
      const settled = await turn(thread.id, "go");
      assert.deepEqual(
        [settled.payload.status, settled.payload.reasonCode],
        ["failed", "context_budget_exceeded"],
      );
      assert.equal(settled.payload.errorMessage, CONTEXT_BUDGET_MESSAGES.off);
      assert.match(String(settled.payload.errorMessage), /Compact now/);
      assert.match(String(settled.payload.errorMessage), /new thread/);
      assert.equal(
        events.filter((e) =>
          e.type === "model.input_prepared" && e.payload.purpose === "compression"
        )
          .length,
        0,
        "no summary call with compaction off",
      );
      assert.deepEqual(frozenCompaction(events, settled.runId!), {
        threshold: 0.9,
        enabled: false,
        source: "thread",
      });
      // Clearing the override: the thread follows config.yaml again (on), and the next Run
      // compacts instead of failing.
      const cleared = await call("thread.update_settings", {
        threadId: thread.id,
        compaction: null,
      });
      assert.deepEqual(cleared.settings, { agentId: "build", compaction: null });
      const again = await call("thread.update_settings", { threadId: thread.id, compaction: null });
      assert.equal(again.changed, false, "an unchanged setting writes nothing");
      assert.equal(again.event, null);
    },
  );
});

Deno.test("thread.update_settings refuses a bad threshold and an unknown thread", async () => {
  await withRuntime([], {}, async ({ call }) => {
    const { thread } = await call("thread.create", { title: "t" });
    for (const threshold of [0.2, 0.99]) {
      await assert.rejects(
        () => call("thread.update_settings", { threadId: thread.id, compaction: { threshold } }),
        (error: unknown) =>
          error instanceof RpcError && error.code === -32602 &&
          error.data.field === "compaction.threshold",
        `threshold ${threshold}`,
      );
    }
    await assert.rejects(
      () =>
        call("thread.update_settings", {
          threadId: `thread_${"0".repeat(32)}`,
          compaction: { enabled: true },
        }),
      (error: unknown) => error instanceof RpcError && error.reasonCode === "thread_not_found",
    );
  });
});

Deno.test("thread.compact: later Runs see the summary in place of the turns it covers", async () => {
  let summaries = 0;
  const script: Script = (request) => {
    if (isSummary(request)) {
      summaries++;
      return {
        text: [`SUMMARY-${summaries}`],
        usage: {
          inputTokens: 500,
          cachedInputTokens: null,
          outputTokens: 20,
          reasoningOutputTokens: null,
          totalTokens: 520,
        },
      };
    }
    const last = texts(request).at(-1) ?? "";
    return { text: [`answer to ${last}`] };
  };
  await withRuntime(script, {}, async ({ call, events, provider, turn }) => {
    const { thread } = await call("thread.create", { title: "t" });
    const empty = await call("thread.compact", { threadId: thread.id, clientRequestId: "c0" });
    assert.deepEqual(
      [empty.compacted, empty.compaction, empty.event],
      [false, null, null],
      "a thread without turns has nothing to compact",
    );
    await turn(thread.id, "alpha question");
    const second = await turn(thread.id, "beta question");
    const done = await call("thread.compact", { threadId: thread.id, clientRequestId: "c1" });
    assert.equal(done.compacted, true);
    assert.equal(done.compaction.throughTurnId, second.turnId);
    assert.match(
      done.compaction.summary,
      /^Prior context summary \(untrusted; verify\):\nSUMMARY-1/,
    );
    assert.ok(done.compaction.tokensBefore > 0);
    assert.equal(done.compaction.modelId, "scripted-model");
    assert.equal(done.event.type, "thread.compacted");
    const summaryRequest = provider.requests.filter(isSummary).at(-1)!;
    assert.match(texts(summaryRequest).join("\n"), /alpha question[\s\S]*beta question/);

    await turn(thread.id, "gamma question");
    const gammaInput = texts(provider.requests.filter((r) => !isSummary(r)).at(-1)!);
    assert.ok(gammaInput.some((t) => t.includes("SUMMARY-1")), gammaInput.join("\n"));
    for (const gone of ["alpha question", "beta question", "answer to beta question"]) {
      assert.ok(!gammaInput.includes(gone), `${gone} is still in the model input`);
    }
    await turn(thread.id, "delta question");
    const deltaInput = texts(provider.requests.filter((r) => !isSummary(r)).at(-1)!);
    assert.ok(deltaInput.includes("gamma question"), "turns after the cut stay verbatim");
    assert.ok(deltaInput.some((t) => t.includes("SUMMARY-1")));

    // Idempotent by clientRequestId: the same answer, no second summary call.
    const calls = provider.requests.length;
    const replay = await call("thread.compact", { threadId: thread.id, clientRequestId: "c1" });
    assert.deepEqual(replay.compaction, done.compaction);
    assert.equal(provider.requests.length, calls, "a retry made another summary call");

    // A second compaction folds the first summary in and covers the newer turns.
    const next = await call("thread.compact", { threadId: thread.id, clientRequestId: "c2" });
    assert.equal(next.compacted, true);
    const foldRequest = texts(provider.requests.at(-1)!).join("\n");
    assert.match(foldRequest, /Earlier summary:[\s\S]*SUMMARY-1/);
    assert.match(foldRequest, /gamma question/);
    assert.doesNotMatch(foldRequest, /alpha question/, "compacted turns are not summarized again");
    const nothing = await call("thread.compact", { threadId: thread.id, clientRequestId: "c3" });
    assert.equal(nothing.compacted, false, "nothing new since the last compaction");

    // The summary calls are model calls of purpose compression, with their usage.
    const compressions = events.filter((e) =>
      e.type === "model.input_prepared" && e.payload.purpose === "compression"
    );
    assert.equal(compressions.length, 2);
    const usage = await call("usage.read", {});
    assert.ok(usage.summary.lifetimeTokens >= 2 * 520, JSON.stringify(usage.summary));
  });
});

Deno.test("thread.compact is refused while a Run is active, and a turn.start during it waits for it", async () => {
  const script: Script = (request) => {
    if (isSummary(request)) return { text: ["SUM", "MARY"], delayMs: 300 };
    const last = texts(request).at(-1) ?? "";
    if (last === "slow") return { text: ["a", "b"], delayMs: 400 };
    return { text: [`answer to ${last}`] };
  };
  await withRuntime(script, {}, async ({ call, events, provider, turn }) => {
    const { thread } = await call("thread.create", { title: "t" });
    const { runId } = await call("turn.start", {
      threadId: thread.id,
      content: "slow",
      providerId: "scripted",
      modelId: "scripted-model",
    });
    await assert.rejects(
      () => call("thread.compact", { threadId: thread.id, clientRequestId: "busy" }),
      (error: unknown) => error instanceof RpcError && error.reasonCode === "turn_active",
    );
    await runSettled(events, runId);
    assert.ok(
      !events.some((e) => e.type === "thread.compacted"),
      "a refused compaction wrote nothing",
    );

    const compacting = call("thread.compact", { threadId: thread.id, clientRequestId: "now" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = await call("turn.start", {
      threadId: thread.id,
      content: "after",
      providerId: "scripted",
      modelId: "scripted-model",
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(
      !events.some((e) =>
        e.type === "run.state_changed" && e.runId === started.runId &&
        e.payload.status === "running"
      ),
      "the Run started while the thread was being compacted",
    );
    const done = await compacting;
    assert.equal(done.compacted, true);
    await runSettled(events, started.runId);
    const input = texts(provider.requests.filter((r) => !isSummary(r)).at(-1)!);
    assert.ok(input.some((t) => t.includes("SUMMARY")), "the waiting Run was built with it");
    assert.ok(!input.includes("slow"), "the compacted turn is not in its input");
    await turn(thread.id, "and on");
  });
});

Deno.test("thread.context reports the last execution call's input tokens against the window", async () => {
  await withRuntime(
    () => ({
      text: ["ok"],
      usage: {
        inputTokens: 1_234,
        cachedInputTokens: null,
        outputTokens: 5,
        reasoningOutputTokens: null,
        totalTokens: 1_239,
      },
    }),
    { contextWindow: () => WINDOW },
    async ({ call, turn }) => {
      const { thread } = await call("thread.create", { title: "t" });
      assert.deepEqual(await call("thread.context", { threadId: thread.id }), {
        threadId: thread.id,
        use: null,
      });
      const settled = await turn(thread.id, "hello");
      const { use } = await call("thread.context", { threadId: thread.id });
      assert.deepEqual(use, {
        runId: settled.runId,
        inputTokens: 1_234,
        estimated: false,
        contextWindow: WINDOW,
      });
    },
  );
});

Deno.test("thread.compact: a failed summary call is compaction_failed and compacts nothing; an unknown thread is thread_not_found", async () => {
  let failSummary = true;
  const script: Script = (request) => {
    if (isSummary(request)) {
      return failSummary
        ? { error: { category: "server", message: "upstream is down" } }
        : { text: ["SUMMARY-OK"] };
    }
    return { text: ["answer"] };
  };
  await withRuntime(script, {}, async ({ call, events, turn }) => {
    const { thread } = await call("thread.create", { title: "t" });
    await turn(thread.id, "first");
    await assert.rejects(
      () => call("thread.compact", { threadId: thread.id, clientRequestId: "fails" }),
      (error: unknown) =>
        error instanceof RpcError && error.reasonCode === "compaction_failed" &&
        /upstream is down/.test(error.message),
    );
    assert.ok(!events.some((e) => e.type === "thread.compacted"), "nothing was compacted");
    const ended = events.filter((e) => e.type === "model.response_finished").at(-1);
    assert.equal(ended?.payload.outcome, "failed", "the failed summary call is recorded");
    failSummary = false;
    const retried = await call("thread.compact", { threadId: thread.id, clientRequestId: "fails" });
    assert.equal(retried.compacted, true, "a failed request can be retried with its id");

    const unknown = `thread_${"0".repeat(32)}`;
    const unknownCalls: [string, Record<string, string>][] = [
      ["thread.compact", { threadId: unknown, clientRequestId: "x" }],
      ["thread.context", { threadId: unknown }],
    ];
    for (const [method, params] of unknownCalls) {
      await assert.rejects(
        () => call(method, params),
        (error: unknown) => error instanceof RpcError && error.reasonCode === "thread_not_found",
        method,
      );
    }
  });
});

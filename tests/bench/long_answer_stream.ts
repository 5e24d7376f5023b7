/**
 * Issue 13's "2,000-delta answer to 3 clients", as a plain loop that reports what
 * `deno bench` does not: the median and the fastest of N turns, and the CPU time the
 * process spent per turn (all its threads, from /proc/self/stat), which a loaded
 * machine disturbs far less than wall time. Same answer and set-up as the "long
 * answer" group of provider_bench.ts: the fake OpenAI-compatible server streams 2,000
 * text deltas of a few characters, one SSE event per HTTP chunk, through the adapter
 * and the runtime to three connected clients; a turn is timed from `turn.start` until
 * all three saw `run.settled`.
 *
 * `deno run -A --unstable-worker-options tests/bench/long_answer_stream.ts [turns]`
 * (default 30 turns after 5 warm-up turns).
 *
 * @module
 */
import { connect, type DaedalusClient } from "@daedalus/client";
import { startRuntime } from "@daedalus/runtime";
import { startFakeOpenAI } from "../fixtures/fake_openai.ts";

const DELTAS = 2_000;
const WARM_UP_TURNS = 5;
const turns = Number(Deno.args[0] ?? 30);

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  data: { id: "c", model: "bench-model", choices: [{ index: 0, delta, finish_reason: finish }] },
});
const longAnswer = {
  sse: [
    chunk({ role: "assistant", content: "" }),
    ...Array.from({ length: DELTAS }, (_, i) => chunk({ content: `w${i % 100} ` })),
    chunk({}, "stop"),
    {
      data: {
        id: "c",
        model: "bench-model",
        choices: [],
        usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
      },
    },
    { raw: "data: [DONE]\n\n" },
  ],
};

/** CPU time of this process so far (user + system, every thread), in milliseconds. */
function processCpuMs(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1]?.split(" ") ?? [];
  const ticksPerSecond = 100;
  return (Number(fields[11]) + Number(fields[12])) * (1000 / ticksPerSecond);
}

/** One turn; resolves with its wall time and how many `item.delta` events a client saw. */
async function timeTurn(clients: DaedalusClient[]): Promise<{ ms: number; deltas: number }> {
  const [first] = clients;
  if (!first) throw new Error("no client");
  const { thread } = await first.call("thread.create", { title: "bench" });
  fake.enqueue(longAnswer);
  let runId = "";
  let deltas = 0;
  const settled = clients.map((client) =>
    new Promise<void>((resolve) => {
      const stop = client.onEvent((event) => {
        if (event.type === "item.delta" && client === first) deltas += 1;
        if (event.type === "run.settled" && event.runId === runId) {
          stop();
          resolve();
        }
      });
    })
  );
  const started = performance.now();
  runId = (await first.call("turn.start", {
    threadId: thread.id,
    content: "Tell me a long story.",
    providerId: "bench",
    modelId: "bench-model",
  })).runId;
  await Promise.all(settled);
  return { ms: performance.now() - started, deltas };
}

const fake = startFakeOpenAI();
const home = await Deno.makeTempDir({ prefix: "daedalus-bench-long-answer-" });
const runtime = await startRuntime({
  home,
  workspacesRoot: `${home}/ws`,
  port: 0,
  tools: [],
  threadTitles: false,
  memoryRefinement: false,
});
const clients = await Promise.all(
  [0, 1, 2].map(() => connect({ url: runtime.url, token: runtime.token })),
);
try {
  await clients[0]!.call("provider.configure", {
    kind: "custom",
    providerId: "bench",
    displayName: "Bench",
    baseUrl: fake.url,
    models: [{ id: "bench-model", contextWindow: 32768 }],
  });
  for (let i = 0; i < WARM_UP_TURNS; i++) await timeTurn(clients);
  const times: number[] = [];
  let deltas = 0;
  const cpuBefore = processCpuMs();
  for (let i = 0; i < turns; i++) {
    const turn = await timeTurn(clients);
    times.push(turn.ms);
    deltas = turn.deltas;
  }
  const cpuPerTurn = (processCpuMs() - cpuBefore) / turns;
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? NaN;
  console.log(
    `${turns} turns: median ${median.toFixed(1)} ms, fastest ${times[0]?.toFixed(1)} ms, ` +
      `CPU ${cpuPerTurn.toFixed(1)} ms per turn, ${deltas} item.delta events per turn`,
  );
} finally {
  for (const client of clients) await client.close();
  await runtime.shutdown();
  await fake.close();
  await Deno.remove(home, { recursive: true });
}

/**
 * Issue 13's benchmark: the warm tool turn, against a minimal baseline in the same run,
 * and the 2,000-delta answer to 3 clients. Everything talks to a strict fake OpenAI model
 * on loopback (tests/fixtures/fake_openai.ts, OpenAI dialect); Daedalus is the real
 * `daedalus serve` with the shipped flags (titles and memory refinement off, so only the
 * user's turn runs); the baseline is tool_turn_baseline.ts (Hono + node:sqlite, the same
 * events, the same prompt and tools, the same read), also its own process.
 *
 * At load it measures, interleaving Daedalus and baseline turns round by round (the
 * machine is shared, so load drifts apply to both alike), and prints a summary:
 * - the warm tool turn (new thread per turn, turn.start → run.settled on a @daedalus/client
 *   connection): median and p90 of 40 turns after 10 warm-up turns, for both, and the ratio;
 * - the CPU each server used in its turns (all threads, from /proc; steadier than wall time
 *   on a shared machine) and the ratio;
 * - bytes received per client per tool turn (WebSocket message bytes: the turn alone, and
 *   with the thread.create before it);
 * - system prompt + tool schema bytes per model request (from the fake's recorded body);
 * - the 2,000-delta answer (2,000 SSE chunks of 6 characters) to 3 clients: turn.start →
 *   the last of the 3 clients sees run.settled, median and p90 of 10, bytes per client,
 *   the floor: the fake's own time to stream the same response to a plain fetch, and the
 *   runtime's CPU per answer (all threads, from /proc: steadier than its wall time).
 * Then `Deno.bench` times the same three turns in deno bench's own table.
 *
 * RSS after 1,000 warm tool turns takes a minute or more: tool_turn_rss.ts, opt-in.
 * Journal append vs a raw INSERT: packages/storage/state/journal_bench.ts.
 * Results and the issue's targets: packages/runtime/README.md.
 */
import type { DaedalusClient } from "@daedalus/client";
import type { FakeResponse, FakeSseStep } from "../fixtures/fake_openai.ts";
import {
  ByteCounter,
  cpuMs,
  daedalusToolTurn,
  startBaseline,
  startDaedalus,
  summarize,
  timedTurn,
  toolTurnResponses,
} from "./_tool_turn.ts";

const WARMUP_TURNS = 10;
const MEASURED_TURNS = 40;
const BYTE_TURNS = 5;
const STREAM_DELTAS = 2000;
const STREAM_WARMUP = 3;
const STREAM_MEASURED = 10;

const daedalus = await startDaedalus();
const daedalusBytes = new ByteCounter();
const client = await daedalus.client(daedalusBytes);
for (let i = 0; i < WARMUP_TURNS; i++) await daedalusToolTurn(daedalus, client);

// What one model request carries, from the first request of the last turn.
const chatRequests = daedalus.fake.requests.filter((r) => r.path.endsWith("/chat/completions"));
const firstRequest = chatRequests.at(-2)!.body as {
  messages: { role: string; content: string }[];
  tools: unknown[];
  model: string;
};
const utf8 = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
const systemBytes = new TextEncoder().encode(
  firstRequest.messages.filter((m) => m.role === "system").map((m) => m.content).join(""),
).length;
const toolBytes = utf8(firstRequest.tools);

const baselineBytes = new ByteCounter();
const baseline = await startBaseline(daedalus.fake, firstRequest, baselineBytes);
for (let i = 0; i < WARMUP_TURNS; i++) await baseline.toolTurn();

const daedalusTurns: number[] = [];
const baselineTurns: number[] = [];
// CPU each server used during its own turns (all its threads): steadier than wall time on
// a shared machine, since waiting for the other processes is left out.
const cpuUsed = { daedalus: { used: 0, known: true }, baseline: { used: 0, known: true } };
const daedalusTurn = () =>
  withCpuOf(daedalus.pid, cpuUsed.daedalus, () => daedalusToolTurn(daedalus, client));
const baselineTurn = () => withCpuOf(baseline.pid, cpuUsed.baseline, () => baseline.toolTurn());
for (let round = 0; round < MEASURED_TURNS; round++) {
  // Alternate which goes first, so neither always runs right after the other.
  if (round % 2 === 0) {
    daedalusTurns.push(await daedalusTurn());
    baselineTurns.push(await baselineTurn());
  } else {
    baselineTurns.push(await baselineTurn());
    daedalusTurns.push(await daedalusTurn());
  }
}

/** Bytes one client receives per tool turn: the turn alone, and with its thread.create. */
async function bytesPerTurn(turn: () => Promise<number>, counter: ByteCounter) {
  let bytes = 0;
  let messages = 0;
  for (let i = 0; i < BYTE_TURNS; i++) {
    counter.reset();
    await turn();
    bytes += counter.bytes / BYTE_TURNS;
    messages += counter.messages / BYTE_TURNS;
  }
  return { bytes, messages };
}
const daedalusCycle = await bytesPerTurn(() => daedalusToolTurn(daedalus, client), daedalusBytes);
const daedalusCycleBytes = daedalusCycle.bytes;
let daedalusTurnOnlyBytes = 0;
let daedalusTurnOnlyMessages = 0;
for (let i = 0; i < BYTE_TURNS; i++) {
  daedalus.fake.enqueue(...toolTurnResponses());
  const { thread } = await client.call("thread.create", {
    title: "bench",
    workspace: { rootUri: daedalus.workspace },
  });
  daedalusBytes.reset();
  await timedTurn(client, [client], thread.id, "read notes.txt");
  daedalusTurnOnlyBytes += daedalusBytes.bytes / BYTE_TURNS;
  daedalusTurnOnlyMessages += daedalusBytes.messages / BYTE_TURNS;
}
const baselineCycle = await bytesPerTurn(() => baseline.toolTurn(), baselineBytes);
const baselineCycleBytes = baselineCycle.bytes;
assertSameTurn();

// The 2,000-delta answer to 3 clients (the first one starts the turn).
const streamBytes = new ByteCounter();
const watchers: DaedalusClient[] = [
  client,
  await daedalus.client(streamBytes),
  await daedalus.client(),
];
const streamTurn = async () => {
  daedalus.fake.enqueue(streamResponse());
  const { thread } = await client.call("thread.create", { title: "stream" });
  return await timedTurn(client, watchers, thread.id, "stream");
};
for (let i = 0; i < STREAM_WARMUP; i++) await streamTurn();
const streamTurns: number[] = [];
let streamClientBytes = 0;
// The runtime's CPU over the measured answers (all its threads): on a shared machine the
// wall time of one answer swings by a third from run to run, the CPU it needs much less.
const streamCpu = { used: 0, known: true };
for (let i = 0; i < STREAM_MEASURED; i++) {
  streamBytes.reset();
  streamTurns.push(await withCpuOf(daedalus.pid, streamCpu, streamTurn));
  streamClientBytes += streamBytes.bytes / STREAM_MEASURED;
}

// The floor: the same 2,000-chunk response read straight from the fake by the bench.
const floorTurns: number[] = [];
for (let i = 0; i < STREAM_MEASURED; i++) {
  daedalus.fake.enqueue(streamResponse());
  const started = performance.now();
  const response = await fetch(`${daedalus.fake.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "fake-model", messages: [{ role: "user", content: "x" }] }),
  });
  await response.text();
  floorTurns.push(performance.now() - started);
}
daedalus.fake.requests.length = 0;

const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
const d = summarize(daedalusTurns);
const b = summarize(baselineTurns);
const s = summarize(streamTurns);
const f = summarize(floorTurns);
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
console.log(
  [
    "",
    `tool-turn benchmark (issue 13), load average ${load}, ${navigator.hardwareConcurrency} cores`,
    `warm tool turn, Daedalus:   median ${ms(d.median)}, p90 ${ms(d.p90)} (n=${d.n})`,
    `warm tool turn, baseline:   median ${ms(b.median)}, p90 ${ms(b.p90)} (n=${b.n})`,
    `ratio Daedalus/baseline:    median ${(d.median / b.median).toFixed(2)}×, p90 ${
      (d.p90 / b.p90).toFixed(2)
    }×`,
    cpuUsed.daedalus.known && cpuUsed.baseline.known
      ? `server CPU per tool turn (all threads, thread.create included): Daedalus ${
        ms(cpuUsed.daedalus.used / MEASURED_TURNS)
      }, baseline ${ms(cpuUsed.baseline.used / MEASURED_TURNS)}, ratio ${
        (cpuUsed.daedalus.used / cpuUsed.baseline.used).toFixed(2)
      }×`
      : "server CPU per tool turn: not measured (no /proc)",
    `bytes per client per tool turn, Daedalus: ${kb(daedalusTurnOnlyBytes)} (turn.start → ` +
    `run.settled), ${kb(daedalusCycleBytes)} with thread.create`,
    `bytes per client per tool turn, baseline: ${kb(baselineCycleBytes)} with thread.create`,
    `events per tool turn: Daedalus ${daedalusTurnOnlyMessages - 1} (+1 for thread.create), ` +
    `baseline ${baselineCycle.messages - 3} (+1); WebSocket messages with thread.create: ` +
    `Daedalus ${daedalusCycle.messages}, baseline ${baselineCycle.messages}`,
    `per model request: system prompt ${kb(systemBytes)} + ${firstRequest.tools.length} tool ` +
    `schemas ${kb(toolBytes)} = ${kb(systemBytes + toolBytes)} (whole body ${
      kb(utf8(firstRequest))
    })`,
    `2,000-delta answer to 3 clients: median ${ms(s.median)}, p90 ${ms(s.p90)} (n=${s.n}), ` +
    `${kb(streamClientBytes)} per client; the fake alone streams it in ${ms(f.median)} ` +
    `(median, read by the bench directly)`,
    streamCpu.known
      ? `runtime CPU per 2,000-delta answer (all threads, thread.create included): ${
        ms(streamCpu.used / STREAM_MEASURED)
      }`
      : "runtime CPU per 2,000-delta answer: not measured (no /proc)",
    "",
  ].join("\n"),
);

Deno.bench("daedalus: warm tool turn (new thread, read, answer)", {
  group: "tool turn",
  n: 30,
  warmup: 3,
}, async (t) => {
  t.start();
  await daedalusToolTurn(daedalus, client);
  t.end();
});

Deno.bench("baseline: warm tool turn (Hono + node:sqlite)", {
  group: "tool turn",
  baseline: true,
  n: 30,
  warmup: 3,
}, async (t) => {
  t.start();
  await baseline.toolTurn();
  t.end();
});

Deno.bench("daedalus: 2,000-delta answer to 3 clients", {
  group: "stream",
  n: 10,
  warmup: 1,
}, async (t) => {
  t.start();
  await streamTurn();
  t.end();
});

// `unload` cannot await: kill both servers and remove their folders synchronously.
globalThis.addEventListener("unload", () => {
  for (const watcher of watchers) void watcher.close();
  baseline.disposeSync();
  daedalus.disposeSync();
});

/**
 * Runs `turn` and adds the CPU the process `pid` used meanwhile (all its threads) to
 * `tally`; marks the tally unknown when /proc cannot say.
 *
 * @returns what `turn` returned
 */
async function withCpuOf(
  pid: number,
  tally: { used: number; known: boolean },
  turn: () => Promise<number>,
): Promise<number> {
  const before = await cpuMs(pid);
  const elapsed = await turn();
  const after = await cpuMs(pid);
  if (before === null || after === null) tally.known = false;
  else tally.used += after - before;
  return elapsed;
}

/**
 * The two sides did the same turn: the fake refused nothing, and every tool turn sent the
 * same system prompt and tools and returned the file's text in a `tool` message.
 *
 * @throws {Error} naming the difference
 */
function assertSameTurn() {
  const { fake } = daedalus;
  if (fake.refusals.length > 0) {
    throw new Error(`the fake refused ${fake.refusals.length} requests`);
  }
  for (const request of fake.requests) {
    const body = request.body as { messages: { role: string; content: unknown }[]; tools: [] };
    if (utf8(body.tools) !== toolBytes) throw new Error("a request sent other tools");
    const tool = body.messages.find((message) => message.role === "tool");
    if (body.messages.length > 2 && !String(tool?.content).includes("line 20: hello")) {
      throw new Error(`a tool turn did not return the file: ${JSON.stringify(tool)}`);
    }
  }
  fake.requests.length = 0;
}

/** 2,000 content chunks of 6 characters, streamed the way OpenAI streams them. */
function streamResponse(): FakeResponse {
  const frame = (delta: Record<string, unknown>, finish: string | null = null) => ({
    data: {
      id: "chatcmpl-stream",
      object: "chat.completion.chunk",
      created: 1_760_000_000,
      model: "fake-model",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      usage: null,
    },
  });
  const steps: FakeSseStep[] = [frame({ role: "assistant", content: "", refusal: null })];
  for (let i = 0; i < STREAM_DELTAS; i++) {
    steps.push(frame({ content: `w${String(i).padStart(4, "0")} ` }));
  }
  steps.push(frame({}, "stop"));
  steps.push({
    data: {
      id: "chatcmpl-stream",
      object: "chat.completion.chunk",
      created: 1_760_000_000,
      model: "fake-model",
      choices: [],
      usage: { prompt_tokens: 40, completion_tokens: 2000, total_tokens: 2040 },
    },
  });
  steps.push({ raw: "data: [DONE]\n\n" });
  return { sse: steps };
}

/**
 * A measurement, not a test: does the runtime's memory keep growing under a flood of
 * read-only RPCs? It spawns the scripted fixture with the shipped flags
 * (tests/e2e/_harness.ts `startFixture`), seeds a few threads with one turn each, then
 * sends `thread.list`, `thread.get` and `turn.list` over `POST /rpc` on loopback with a
 * bounded number in flight, and samples the child's VmRSS from /proc/<pid>/status every
 * `--sample-every` requests. It prints one line per sample and a verdict: whether the
 * second half of the run still grew by more than `PLATEAU_GROWTH_MAX_MB`.
 *
 * ```sh
 * deno run -A tests/bench/rpc_flood.ts --requests 100000 --concurrency 8
 * ```
 *
 * The file name does not end in `_bench.ts`, so `deno task bench` does not run it.
 * The method, numbers and verdict are in packages/runtime/README.md
 * ("Memory under an RPC flood").
 *
 * @module
 */
import { parseArgs } from "node:util";
import { makeTempHome, startFixture } from "../e2e/_harness.ts";

/** Growth over the second half of the run, in MB, below which RSS counts as a plateau. */
const PLATEAU_GROWTH_MAX_MB = 16;

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "100000" },
    concurrency: { type: "string", default: "8" },
    "sample-every": { type: "string", default: "5000" },
    threads: { type: "string", default: "20" },
    methods: { type: "string", default: "thread.list,thread.get,turn.list" },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const sampleEvery = Number(values["sample-every"]);
const threadCount = Number(values.threads);
const methods = values.methods.split(",");

await using home = await makeTempHome();
await using server = await startFixture(home, {
  DAEDALUS_THREAD_TITLES: "0",
  DAEDALUS_MEMORY_REFINEMENT: "0",
});
const token = await server.token();
const pid = server.child.process.pid;
let nextId = 1;

/** One JSON-RPC call over POST /rpc; throws on a transport or RPC error. */
async function rpc(method: string, params: unknown): Promise<unknown> {
  const response = await fetch(`${server.url}rpc`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
  const body = await response.json() as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** The child's resident set size, in MB (VmRSS of /proc/<pid>/status). */
async function rssMb(): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? NaN);
  return Math.round(kb / 102.4) / 10;
}

// Seed: threads with one completed turn each, so the reads return real rows.
const threadIds: string[] = [];
for (let index = 0; index < threadCount; index++) {
  const { thread } = await rpc("thread.create", { title: `flood ${index}` }) as {
    thread: { id: string };
  };
  threadIds.push(thread.id);
  await rpc("turn.start", {
    threadId: thread.id,
    content: `hello ${index}`,
    providerId: "scripted",
    modelId: "scripted-model",
  });
}
for (const threadId of threadIds) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const page = await rpc("turn.list", { threadId }) as {
      turns: { runs: { status: string }[] }[];
    };
    if (page.turns[0]?.runs[0]?.status === "completed") break;
    if (Date.now() > deadline) throw new Error(`seed run of ${threadId} did not complete`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The i-th read-only call: the methods in turn, over the seeded threads. */
function readCall(index: number): [string, unknown] {
  const threadId = threadIds[index % threadIds.length];
  const method = methods[index % methods.length]!;
  return [method, method === "thread.list" ? {} : { threadId }];
}

const samples: { sent: number; rssMb: number; seconds: number }[] = [];
const started = performance.now();
samples.push({ sent: 0, rssMb: await rssMb(), seconds: 0 });
console.log(`requests\tVmRSS MB\tseconds`);
console.log(`0\t${samples[0]!.rssMb}\t0`);
let sent = 0;
let failures = 0;
let sampling = Promise.resolve();

async function worker(): Promise<void> {
  while (sent < requests) {
    const index = sent++;
    const [method, params] = readCall(index);
    await rpc(method, params).catch(() => failures++);
    const done = index + 1;
    if (done % sampleEvery === 0) {
      sampling = sampling.then(async () => {
        const sample = {
          sent: done,
          rssMb: await rssMb(),
          seconds: Math.round((performance.now() - started) / 100) / 10,
        };
        samples.push(sample);
        console.log(`${sample.sent}\t${sample.rssMb}\t${sample.seconds}`);
      });
    }
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await sampling;

const mid = samples.find((sample) => sample.sent >= requests / 2) ?? samples[0]!;
const last = samples.at(-1)!;
const peak = Math.max(...samples.map((sample) => sample.rssMb));
const secondHalfGrowth = Math.round((last.rssMb - mid.rssMb) * 10) / 10;
console.log(
  JSON.stringify({
    requests,
    concurrency,
    failures,
    rssStartMb: samples[0]!.rssMb,
    rssMidMb: mid.rssMb,
    rssEndMb: last.rssMb,
    rssPeakMb: peak,
    secondHalfGrowthMb: secondHalfGrowth,
    requestsPerSecond: Math.round(requests / last.seconds),
    verdict: secondHalfGrowth > PLATEAU_GROWTH_MAX_MB ? "still growing" : "plateau",
  }),
);

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
 * `--in-process` runs the runtime in this process instead (same scripted model) and, when
 * started with `--v8-flags=--expose-gc`, collects garbage before each sample and also
 * reports the JS heap after collection — what separates retained objects from native
 * memory that is only freed late:
 *
 * ```sh
 * deno run -A --v8-flags=--expose-gc tests/bench/rpc_flood.ts --in-process --requests 60000
 * ```
 *
 * The file name does not end in `_bench.ts`, so `deno task bench` does not run it.
 * The method, numbers and verdict are in packages/runtime/README.md
 * ("Memory under an RPC flood").
 *
 * @module
 */
import { parseArgs } from "node:util";
import { createScriptedProvider, startRuntime } from "@daedalus/runtime";
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
    "in-process": { type: "boolean", default: false },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const sampleEvery = Number(values["sample-every"]);
const threadCount = Number(values.threads);
const methods = values.methods.split(",");

/** Where the flood goes and how its memory is read. */
interface Target extends AsyncDisposable {
  url: string;
  token: string;
  /** Resident set size, and the JS heap after a collection when that can be forced. */
  memory(): Promise<{ rssMb: number; heapUsedMb?: number }>;
}

const mb = (bytes: number) => Math.round(bytes / 104857.6) / 10;

/** The scripted fixture as a child with the shipped flags; its VmRSS from /proc. */
async function spawnedTarget(): Promise<Target> {
  const home = await makeTempHome();
  const server = await startFixture(home, {
    DAEDALUS_THREAD_TITLES: "0",
    DAEDALUS_MEMORY_REFINEMENT: "0",
  });
  const pid = server.child.process.pid;
  return {
    url: server.url,
    token: await server.token(),
    async memory() {
      const status = await Deno.readTextFile(`/proc/${pid}/status`);
      const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? NaN);
      return { rssMb: mb(kb * 1024) };
    },
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      await home[Symbol.asyncDispose]();
    },
  };
}

/** The runtime in this process (client and server share the numbers). */
async function inProcessTarget(): Promise<Target> {
  const home = await Deno.makeTempDir({ prefix: "daedalus-flood-" });
  const runtime = await startRuntime({
    home,
    workspacesRoot: `${home}/workspaces`,
    port: 0,
    threadTitles: false,
    memoryRefinement: false,
    providers: [createScriptedProvider({ script: () => ({ text: ["Answer"] }) })],
  });
  const gc = (globalThis as { gc?: () => void }).gc;
  return {
    url: runtime.url,
    token: runtime.token,
    memory() {
      if (!gc) return Promise.resolve({ rssMb: mb(Deno.memoryUsage().rss) });
      gc();
      const usage = Deno.memoryUsage();
      return Promise.resolve({ rssMb: mb(usage.rss), heapUsedMb: mb(usage.heapUsed) });
    },
    async [Symbol.asyncDispose]() {
      await runtime.shutdown();
      await Deno.remove(home, { recursive: true });
    },
  };
}

await using server = values["in-process"] ? await inProcessTarget() : await spawnedTarget();
const token = server.token;
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

interface Sample {
  sent: number;
  rssMb: number;
  heapUsedMb?: number;
  seconds: number;
}
const samples: Sample[] = [];
const started = performance.now();
const takeSample = async (sent: number) => {
  const sample: Sample = {
    sent,
    ...await server.memory(),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  samples.push(sample);
  console.log([sample.sent, sample.rssMb, sample.heapUsedMb ?? "-", sample.seconds].join("\t"));
};
console.log(`requests\tRSS MB\theap used after GC MB\tseconds`);
await takeSample(0);
let sent = 0;
let failures = 0;
let sampling = Promise.resolve();

async function worker(): Promise<void> {
  while (sent < requests) {
    const index = sent++;
    const [method, params] = readCall(index);
    await rpc(method, params).catch(() => failures++);
    const done = index + 1;
    if (done % sampleEvery === 0) sampling = sampling.then(() => takeSample(done));
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await sampling;

const first = samples[0]!;
const mid = samples.find((sample) => sample.sent >= requests / 2) ?? first;
const last = samples.at(-1)!;
const secondHalfGrowth = Math.round((last.rssMb - mid.rssMb) * 10) / 10;
console.log(
  JSON.stringify({
    target: values["in-process"] ? "in-process" : "spawned fixture (shipped flags)",
    requests,
    concurrency,
    failures,
    rssStartMb: first.rssMb,
    rssMidMb: mid.rssMb,
    rssEndMb: last.rssMb,
    rssPeakMb: Math.max(...samples.map((sample) => sample.rssMb)),
    ...(last.heapUsedMb === undefined
      ? {}
      : { heapUsedStartMb: first.heapUsedMb, heapUsedEndMb: last.heapUsedMb }),
    secondHalfGrowthMb: secondHalfGrowth,
    requestsPerSecond: Math.round(requests / last.seconds),
    verdict: secondHalfGrowth > PLATEAU_GROWTH_MAX_MB ? "still growing" : "plateau",
  }),
);

/**
 * Issue 18's gateway bench, end to end: one 2,000-delta answer (the fake OpenAI-compatible
 * server streams 2,000 text deltas through the adapter and the runtime) delivered to one
 * client, timed from the request until the client has the whole answer — as the
 * WebSocket `event` notifications the PWA receives (the baseline: `thread.create`,
 * `turn.start`, until `run.settled` arrives), as Dify SSE (`POST /dify/v1/chat-messages`
 * streaming, read to its end) and as AG-UI (`POST /ag-ui`, read to RUN_FINISHED). Each
 * gateway request makes its thread too, as the baseline's does. The target: each gateway
 * wire ≤ 1.2× the WebSocket stream.
 *
 * App keys are rate-limited (bursts of 10): the bench spreads its requests over a pool of
 * keys, one per few requests, so it measures the stream and not the limiter.
 *
 * @module
 */
import { connect } from "@daedalus/client";
import { startRuntime } from "@daedalus/runtime";
import { startFakeOpenAI } from "../fixtures/fake_openai.ts";

const DELTAS = 2_000;
/** Requests per key before the next one: under the limiter's burst of 10. */
const REQUESTS_PER_KEY = 8;
const ITERATIONS = { n: 20, warmup: 3 };

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

const fake = startFakeOpenAI();
const home = await Deno.makeTempDir({ prefix: "daedalus-bench-gateway-" });
const runtime = await startRuntime({
  home,
  workspacesRoot: `${home}/ws`,
  port: 0,
  tools: [],
  threadTitles: false,
  memoryRefinement: false,
});
const client = await connect({ url: runtime.url, token: runtime.token });
await client.call("provider.configure", {
  kind: "custom",
  providerId: "bench",
  displayName: "Bench",
  baseUrl: fake.url,
  models: [{ id: "bench-model", contextWindow: 32768 }],
});
const profile = {
  providerId: "bench",
  modelId: "bench-model",
  permission: "read_only",
} as const;
let requests = 0;
let key = "";
/** An app key with room under its rate limit. */
async function freshKey(): Promise<string> {
  if (requests++ % REQUESTS_PER_KEY === 0) {
    key = (await client.call("gateway.key.create", { name: `bench ${requests}`, profile })).key;
  }
  return key;
}

/** Reads a response body to its end; fails unless it ends as `done` says. */
async function drain(response: Response, done: string): Promise<void> {
  if (!response.ok || response.body === null) {
    throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  }
  let tail = "";
  const decoder = new TextDecoder();
  for await (const bytes of response.body) tail = (tail + decoder.decode(bytes)).slice(-4096);
  if (!tail.includes(done)) throw new Error(`the stream did not end with ${done}: ${tail}`);
}

let threads = 0;

Deno.bench("WebSocket event notifications (baseline)", {
  group: "gateway: a 2,000-delta answer to one client",
  baseline: true,
  ...ITERATIONS,
}, async () => {
  const { thread } = await client.call("thread.create", { title: "bench" });
  fake.enqueue(longAnswer);
  let runId = "";
  const settled = new Promise<void>((resolve) => {
    const stop = client.onEvent((event) => {
      if (event.type === "run.settled" && event.runId === runId) {
        stop();
        resolve();
      }
    });
  });
  runId = (await client.call("turn.start", {
    threadId: thread.id,
    content: "Tell me a long story.",
    providerId: "bench",
    modelId: "bench-model",
    executionPolicy: "read_only",
  })).runId;
  await settled;
});

Deno.bench("Dify SSE (POST /dify/v1/chat-messages, streaming)", {
  group: "gateway: a 2,000-delta answer to one client",
  ...ITERATIONS,
}, async () => {
  const bearer = await freshKey();
  fake.enqueue(longAnswer);
  const response = await fetch(new URL("dify/v1/chat-messages", runtime.url), {
    method: "POST",
    headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      query: "Tell me a long story.",
      user: "bench",
      inputs: {},
      response_mode: "streaming",
    }),
  });
  await drain(response, '"event":"message_end"');
});

Deno.bench("AG-UI (POST /ag-ui)", {
  group: "gateway: a 2,000-delta answer to one client",
  ...ITERATIONS,
}, async () => {
  const bearer = await freshKey();
  fake.enqueue(longAnswer);
  const response = await fetch(new URL("ag-ui", runtime.url), {
    method: "POST",
    headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      threadId: `bench-${++threads}`,
      runId: `run-${threads}`,
      messages: [{ id: "u", role: "user", content: "Tell me a long story." }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    }),
  });
  await drain(response, '"type":"RUN_FINISHED"');
});

globalThis.addEventListener("unload", () => {
  // Deno.bench has no after-all hook: the process is ending, so close what it opened.
  client.close().catch(() => {});
  runtime.shutdown().catch(() => {});
  fake.close().catch(() => {});
  try {
    Deno.removeSync(home, { recursive: true });
  } catch { /* already gone */ }
});

/**
 * The runtime's own cost per step of a real-provider turn, against the fake
 * OpenAI-compatible server's time: the baseline streams one response through the
 * adapter alone; the turn is the same model answering with a tool call and then a
 * text (two model calls, one tool) through the whole runtime, one client watching.
 * Per-step overhead ≈ (turn − 2 × baseline) / 2.
 *
 * The long answer: 2,000 text deltas of a few characters each streamed by the fake
 * server through the adapter and the runtime to three connected clients, timed from
 * turn.start until all three saw run.settled (issue 13's target: ≤ 80 ms).
 */
import { connect } from "@daedalus/client";
import { defineTool, startRuntime } from "@daedalus/runtime";
import { z } from "zod";
import { createOpenAICompatibleProvider } from "../../packages/runtime/providers/openai/adapter.ts";
import {
  DEFAULT_PROVIDER_TIMEOUTS,
  Exchange,
} from "../../packages/runtime/providers/openai/exchange.ts";
import { startFakeOpenAI } from "../fixtures/fake_openai.ts";

const fake = startFakeOpenAI();
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  data: { id: "c", model: "bench-model", choices: [{ index: 0, delta, finish_reason: finish }] },
});
const usage = {
  data: {
    id: "c",
    model: "bench-model",
    choices: [],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  },
};
const toolCallResponse = {
  sse: [
    chunk({ role: "assistant", content: "Let me check." }),
    chunk({
      tool_calls: [{
        index: 0,
        id: "call_1",
        type: "function",
        function: { name: "echo", arguments: '{"text":' },
      }],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"hi"}' } }] }),
    chunk({}, "tool_calls"),
    usage,
    { raw: "data: [DONE]\n\n" },
  ],
};
const answerResponse = {
  sse: [chunk({ role: "assistant", content: "It says hi." }), chunk({}, "stop"), usage, {
    raw: "data: [DONE]\n\n",
  }],
};

const LONG_ANSWER_DELTAS = 2_000;
const longAnswerResponse = {
  sse: [
    chunk({ role: "assistant", content: "" }),
    ...Array.from({ length: LONG_ANSWER_DELTAS }, (_, i) => chunk({ content: `w${i % 100} ` })),
    chunk({}, "stop"),
    usage,
    { raw: "data: [DONE]\n\n" },
  ],
};

const adapter = createOpenAICompatibleProvider({
  id: "bench",
  baseUrl: fake.url,
  models: ["bench-model"],
});
Deno.bench("adapter alone: one streamed response from the fake server (baseline)", {
  group: "provider",
  baseline: true,
}, async () => {
  fake.enqueue(toolCallResponse);
  for await (
    const _event of adapter.stream({
      modelId: "bench-model",
      messages: [{ role: "user", content: "hi" }],
      tools: [],
      reasoningEffort: null,
    }, new AbortController().signal)
  ) {
    // drain
  }
});

Deno.bench("adapter alone: a 2,000-delta response from the fake server", {
  group: "long answer",
  baseline: true,
}, async () => {
  fake.enqueue(longAnswerResponse);
  for await (
    const _event of adapter.stream({
      modelId: "bench-model",
      messages: [{ role: "user", content: "hi" }],
      tools: [],
      reasoningEffort: null,
    }, new AbortController().signal)
  ) {
    // drain
  }
});

const encoder = new TextEncoder();
const longAnswerChunks = Array.from(
  { length: LONG_ANSWER_DELTAS },
  (_, i) =>
    encoder.encode(`data: {"choices":[{"index":0,"delta":{"content":"w${i % 100} "}}]}\n\n`),
);
/**
 * A body of 2,000 small SSE events, each its own chunk, pulled from memory. It is a byte
 * stream that copies each chunk into the reader's buffer, as Deno's fetch body does with
 * the bytes of each socket read.
 */
function longInMemoryBody(): Response {
  let sent = 0;
  return new Response(
    new ReadableStream({
      type: "bytes",
      autoAllocateChunkSize: 64 * 1024,
      pull(controller) {
        const chunk = longAnswerChunks[sent++];
        const request = controller.byobRequest;
        if (chunk === undefined || request?.view == null) {
          controller.close();
          // A read waiting on a closed byte stream ends once its request is answered empty.
          return request?.respond(0);
        }
        new Uint8Array(request.view.buffer, request.view.byteOffset).set(chunk);
        request.respond(chunk.length);
      },
    }, { highWaterMark: 0 }),
  );
}
Deno.bench("Exchange.body alone: 2,000 chunks from memory (the idle deadline's cost)", {
  group: "long answer",
}, async () => {
  const exchange = new Exchange(
    () => Promise.resolve(longInMemoryBody()),
    DEFAULT_PROVIDER_TIMEOUTS,
    new AbortController().signal,
  );
  const body = exchange.body(await exchange.open("http://x/", {}));
  let chunks = 0;
  while (await body.next() !== null) chunks += 1;
  await body.close();
  exchange.close();
  if (chunks !== LONG_ANSWER_DELTAS) throw new Error(`read ${chunks} chunks`);
});

const echo = defineTool({
  id: "echo",
  description: "Echoes its text",
  params: z.object({ text: z.string().optional() }),
  mutating: false,
  risk: "read",
  run: (params) => Promise.resolve({ content: params.text ?? "" }),
});
const home = await Deno.makeTempDir({ prefix: "daedalus-bench-provider-" });
const runtime = await startRuntime({
  home,
  workspacesRoot: `${home}/ws`,
  port: 0,
  tools: [echo],
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

Deno.bench("runtime: a turn with one tool call (2 model calls), turn.start → run.settled", {
  group: "provider",
}, async (b) => {
  const { thread } = await client.call("thread.create", { title: "bench" });
  fake.enqueue(toolCallResponse, answerResponse);
  let runId = "";
  const settled = new Promise<void>((resolve) => {
    const stop = client.onEvent((event) => {
      if (event.type === "run.settled" && event.runId === runId) {
        stop();
        resolve();
      }
    });
  });
  b.start();
  runId = (await client.call("turn.start", {
    threadId: thread.id,
    content: "What does echo say?",
    providerId: "bench",
    modelId: "bench-model",
  })).runId;
  await settled;
  b.end();
});

const watchers = await Promise.all(
  [0, 1].map(() => connect({ url: runtime.url, token: runtime.token })),
);
const allClients = [client, ...watchers];

Deno.bench("runtime: a 2,000-delta answer to 3 clients, turn.start → all saw run.settled", {
  group: "long answer",
}, async (b) => {
  const { thread } = await client.call("thread.create", { title: "bench" });
  fake.enqueue(longAnswerResponse);
  let runId = "";
  const settled = allClients.map((each) =>
    new Promise<void>((resolve) => {
      const stop = each.onEvent((event) => {
        if (event.type === "run.settled" && event.runId === runId) {
          stop();
          resolve();
        }
      });
    })
  );
  b.start();
  runId = (await client.call("turn.start", {
    threadId: thread.id,
    content: "Tell me a long story.",
    providerId: "bench",
    modelId: "bench-model",
  })).runId;
  await Promise.all(settled);
  b.end();
});

globalThis.addEventListener("unload", () => {
  for (const watcher of watchers) void watcher.close();
  void client.close();
  void runtime.shutdown();
  void fake.close();
});

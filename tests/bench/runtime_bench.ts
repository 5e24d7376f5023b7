/**
 * The runtime's own overhead, with a scripted model (no model time) and three
 * connected WebSocket clients consuming every event:
 * - one scripted step: turn.start → queued → running → one model call with one text
 *   chunk → settled, until all three clients have seen run.settled;
 * - a 100-delta stream: the same, with 100 chunks of 256 characters (each persisted and
 *   fanned out as its own item.delta), so (stream − step) / 99 is the cost per delta.
 * Results go in packages/runtime/README.md.
 */
import { connect, type DaedalusClient } from "@daedalus/client";
import { createScriptedProvider, messageText, startRuntime } from "@daedalus/runtime";

const chunk = "x".repeat(256);
const home = await Deno.makeTempDir({ prefix: "daedalus-bench-runtime-" });
const runtime = await startRuntime({
  home,
  workspacesRoot: `${home}/ws`,
  port: 0,
  threadTitles: false,
  memoryRefinement: false,
  providers: [
    createScriptedProvider({
      script: (request) =>
        messageText(request.messages.at(-1)?.content ?? "") === "stream"
          ? { text: Array.from({ length: 100 }, () => chunk) }
          : { text: ["done"] },
    }),
  ],
});
const clients: DaedalusClient[] = await Promise.all(
  [0, 1, 2].map(() => connect({ url: runtime.url, token: runtime.token })),
);
const [first] = clients;

/** One turn on a fresh thread; only the turn is timed (history stays one turn long). */
async function timedTurn(b: Deno.BenchContext, content: string) {
  const { thread } = await first!.call("thread.create", { title: "bench" });
  let runId = "";
  const settled = clients.map((client) =>
    new Promise<void>((resolve) => {
      const stop = client.onEvent((event) => {
        if (event.type === "run.settled" && event.runId === runId) {
          stop();
          resolve();
        }
      });
    })
  );
  b.start();
  runId = (await first!.call("turn.start", {
    threadId: thread.id,
    content,
    providerId: "scripted",
    modelId: "scripted-model",
  })).runId;
  await Promise.all(settled);
  b.end();
}

Deno.bench("runtime: one scripted step, 3 clients (turn.start → all saw run.settled)", {
  group: "step",
  baseline: true,
}, async (b) => {
  await timedTurn(b, "step");
});

Deno.bench("runtime: 100 streamed deltas of 256 chars, 3 clients", { group: "step" }, async (b) => {
  await timedTurn(b, "stream");
});

globalThis.addEventListener("unload", () => {
  for (const client of clients) void client.close();
  void runtime.shutdown();
});

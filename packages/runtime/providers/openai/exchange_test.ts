import assert from "node:assert/strict";
import { ProviderError } from "../provider.ts";
import { DEFAULT_PROVIDER_TIMEOUTS, Exchange } from "./exchange.ts";
import { BODY_READ_BUFFER_BYTES } from "./limits.ts";

const encoder = new TextEncoder();
const small = { connectMs: 20, headersMs: 20, idleMs: 30 };

/**
 * The chunks of `Exchange.body`, closed when the loop ends or fails. Each is a view valid
 * until the next chunk is asked for, as the body hands it out.
 */
async function* chunksOf(exchange: Exchange, response: Response): AsyncGenerator<Uint8Array> {
  const body = exchange.body(response);
  try {
    for (let chunk = await body.next(); chunk !== null; chunk = await body.next()) yield chunk;
  } finally {
    await body.close();
  }
}

function isCategory(category: string) {
  return (error: unknown) => error instanceof ProviderError && error.category === category;
}

/** A fetch that answers with a body whose source the test controls. */
function streamingFetch(onCancel: () => void = () => {}) {
  let source: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => void (source = controller),
    cancel: onCancel,
  });
  const fetchFn = () => Promise.resolve(new Response(body));
  return {
    fetchFn,
    send: (text: string) => source?.enqueue(encoder.encode(text)),
    end: () => source?.close(),
  };
}

Deno.test("the defaults are the seed's timeouts", () => {
  assert.deepEqual(DEFAULT_PROVIDER_TIMEOUTS, {
    connectMs: 10_000,
    headersMs: 30_000,
    idleMs: 300_000,
  });
});

Deno.test("a fetch that never answers times out, even if it ignores the signal", async () => {
  const never = () => new Promise<Response>(() => {});
  const exchange = new Exchange(never, small, new AbortController().signal);
  await assert.rejects(exchange.open("http://x/", {}), isCategory("timeout"));
  exchange.close();
});

Deno.test("a body that goes silent times out; bytes reset the idle deadline", async () => {
  const { fetchFn, send } = streamingFetch();
  // 20 pieces 10 ms apart outlast one idle period of 100 ms: only resets keep it alive.
  const timeouts = { ...small, idleMs: 100 };
  const exchange = new Exchange(fetchFn, timeouts, new AbortController().signal);
  const response = await exchange.open("http://x/", {});
  let received = 0;
  const reading = (async () => {
    for await (const _ of chunksOf(exchange, response)) {
      received += 1;
      if (received < 20) setTimeout(() => send("piece"), 10);
    }
  })();
  send("piece");
  await assert.rejects(reading, isCategory("timeout"));
  assert.equal(received, 20, "every piece before the silence arrives");
  exchange.close();
});

Deno.test("aborting the caller's signal cancels a pending read", async () => {
  const { fetchFn } = streamingFetch();
  const controller = new AbortController();
  const exchange = new Exchange(fetchFn, DEFAULT_PROVIDER_TIMEOUTS, controller.signal);
  const response = await exchange.open("http://x/", {});
  const reading = (async () => {
    for await (const _ of chunksOf(exchange, response)) { /* nothing comes */ }
  })();
  controller.abort();
  await assert.rejects(reading, isCategory("cancelled"));
  exchange.close();
});

Deno.test("an aborted signal refuses to start", async () => {
  const controller = new AbortController();
  controller.abort();
  let called = false;
  const fetchFn = () => {
    called = true;
    return Promise.resolve(new Response("x"));
  };
  const exchange = new Exchange(fetchFn, DEFAULT_PROVIDER_TIMEOUTS, controller.signal);
  await assert.rejects(exchange.open("http://x/", {}), isCategory("cancelled"));
  assert.equal(called, false);
  exchange.close();
});

Deno.test("a failing fetch is a network error", async () => {
  const refused = () => Promise.reject(new TypeError("connection refused"));
  const exchange = new Exchange(refused, small, new AbortController().signal);
  await assert.rejects(exchange.open("http://x/", {}), isCategory("network"));
  exchange.close();
});

Deno.test("readText stops at the limit and cancels the rest of the body", async () => {
  let cancelled = false;
  const { fetchFn, send } = streamingFetch(() => void (cancelled = true));
  const exchange = new Exchange(fetchFn, DEFAULT_PROVIDER_TIMEOUTS, new AbortController().signal);
  const response = await exchange.open("http://x/", {});
  send("0123456789");
  send("abcdefghij");
  assert.deepEqual(await exchange.readText(response, 15), {
    text: "0123456789abcde",
    complete: false,
  });
  assert.equal(cancelled, true);
  exchange.close();
});

/** Reads the whole body, counting its pieces; the failure, if any, is returned. */
async function drain(
  exchange: Exchange,
  response: Response,
  onPiece: (received: number) => Promise<void> | void = () => {},
): Promise<{ received: number; failure: unknown }> {
  let received = 0;
  try {
    for await (const _ of chunksOf(exchange, response)) {
      received += 1;
      await onPiece(received);
    }
    return { received, failure: null };
  } catch (failure) {
    return { received, failure };
  }
}

Deno.test("a stream slower than the idle limit between chunks fails with the idle timeout", async () => {
  const { fetchFn, send } = streamingFetch();
  const exchange = new Exchange(fetchFn, { ...small, idleMs: 40 }, new AbortController().signal);
  const response = await exchange.open("http://x/", {});
  // Each piece comes only after three idle periods: the first gap must end the stream.
  const timers = [120, 240, 360].map((ms) => setTimeout(() => send("late"), ms));
  send("first");
  const { received, failure } = await drain(exchange, response);
  timers.forEach(clearTimeout);
  assert.equal(received, 1, "only the piece before the first long silence arrives");
  assert.ok(failure instanceof ProviderError, `expected a ProviderError, got ${failure}`);
  assert.equal(failure.category, "timeout");
  assert.equal(failure.retryable, true);
  assert.equal(failure.message, "The provider sent nothing for 40 ms");
  exchange.close();
});

Deno.test("a long fast stream outlasting many idle periods is not cut", async () => {
  const { fetchFn, send, end } = streamingFetch();
  const exchange = new Exchange(fetchFn, { ...small, idleMs: 200 }, new AbortController().signal);
  const response = await exchange.open("http://x/", {});
  const pieces = 300;
  // Each piece is sent a few milliseconds after the last arrived: the stream lasts
  // several idle periods, and only a deadline that follows the pieces keeps it alive.
  send("piece 0");
  const { received, failure } = await drain(exchange, response, (count) => {
    if (count < pieces) setTimeout(() => send(`piece ${count}`), 3);
    else end();
  });
  assert.equal(failure, null, `the stream failed after ${received} pieces: ${failure}`);
  assert.equal(received, pieces);
  exchange.close();
});

Deno.test("time the consumer spends on a piece is not provider silence", async () => {
  const { fetchFn, send, end } = streamingFetch();
  const exchange = new Exchange(fetchFn, { ...small, idleMs: 40 }, new AbortController().signal);
  const response = await exchange.open("http://x/", {});
  send("first");
  send("second");
  // The consumer holds the first piece for three idle periods; the provider was not silent.
  const { received, failure } = await drain(exchange, response, async (count) => {
    if (count === 1) await new Promise((resolve) => setTimeout(resolve, 120));
    else end();
  });
  assert.equal(failure, null, `the stream failed after ${received} pieces: ${failure}`);
  assert.equal(received, 2);
  exchange.close();
});

/** A real server on 127.0.0.1 whose response body the test writes piece by piece. */
function servedBody() {
  let source: ReadableStreamDefaultController<Uint8Array> | undefined;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response(
        new ReadableStream<Uint8Array>({ start: (controller) => void (source = controller) }),
      ),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    send: (text: string) => source?.enqueue(encoder.encode(text)),
    end: () => source?.close(),
    close: () => server.shutdown(),
  };
}

Deno.test("a fetched body's chunks are whole when handed out, though every read reuses one buffer", async () => {
  const served = servedBody();
  const exchange = new Exchange(fetch, small, new AbortController().signal);
  const response = await exchange.open(served.url, {});
  const texts: string[] = [];
  const buffers = new Set<number>();
  const words = ["alpha ", "beta ", "gamma ", "delta"];
  served.send(words[0]!);
  for await (const chunk of chunksOf(exchange, response)) {
    // Decoded at once: the view is valid until the next read.
    texts.push(new TextDecoder().decode(chunk));
    buffers.add(chunk.buffer.byteLength);
    const next = words[texts.length];
    if (next === undefined) served.end();
    else setTimeout(() => served.send(next), 5);
  }
  exchange.close();
  await served.close();
  assert.deepEqual(texts, words, "each chunk holds its own piece's bytes");
  assert.deepEqual(
    [...buffers],
    [BODY_READ_BUFFER_BYTES],
    "every chunk is a view of the read buffer",
  );
});

Deno.test("a fetched body that goes silent fails with the idle timeout", async () => {
  const served = servedBody();
  const exchange = new Exchange(fetch, { ...small, idleMs: 40 }, new AbortController().signal);
  const response = await exchange.open(served.url, {});
  served.send("first");
  const { received, failure } = await drain(exchange, response);
  exchange.close();
  await served.close();
  assert.ok(isCategory("timeout")(failure), `expected an idle timeout, got ${failure}`);
  assert.equal(received, 1);
});

Deno.test("a fetched body's chunks hold only their own bytes, not a fresh read buffer each", async () => {
  // A real fetch from a real server on loopback: each piece is flushed on its own, so
  // the body arrives in several chunks, as an SSE stream does.
  const pieces = Array.from({ length: 6 }, (_, i) => `data: piece ${i} ${"x".repeat(200)}\n\n`);
  let release: () => void = () => {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const piece of pieces) {
          controller.enqueue(encoder.encode(piece));
          // The client asks for the next piece only once it has read this one.
          await new Promise<void>((resolve) => release = resolve);
        }
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  try {
    const exchange = new Exchange(fetch, DEFAULT_PROVIDER_TIMEOUTS, new AbortController().signal);
    const response = await exchange.open(`http://127.0.0.1:${server.addr.port}/`, {});
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for await (const chunk of chunksOf(exchange, response)) {
      assert.ok(
        chunk.buffer.byteLength <= 16 * 1024,
        `a chunk of ${chunk.byteLength} bytes holds a ${chunk.buffer.byteLength}-byte buffer`,
      );
      text += decoder.decode(chunk, { stream: true });
      chunks++;
      release();
    }
    exchange.close();
    assert.equal(text + decoder.decode(), pieces.join(""));
    assert.ok(chunks >= 2, `the body came in ${chunks} chunk(s); the test needs several`);
  } finally {
    await server.shutdown();
  }
});

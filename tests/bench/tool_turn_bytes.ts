/**
 * Bytes one client receives per warm tool turn, by message kind: each journal event by
 * its type, responses as `response`. Runs the shipped runtime on the fake model
 * (_tool_turn.ts), warms it with a few tool turns, then counts the next ones and prints
 * the mean per turn.
 *
 * `deno run -A --unstable-worker-options tests/bench/tool_turn_bytes.ts`
 *
 * @module
 */
import { connect, type WebSocketConstructor, type WebSocketOptions } from "@daedalus/client";
import { daedalusToolTurn, startDaedalus } from "./_tool_turn.ts";

const WARMUP_TURNS = 3;
const MEASURED_TURNS = 5;

/** Bytes and message counts by kind. */
class BytesByKind {
  readonly totals = new Map<string, { bytes: number; messages: number }>();
  counting = false;
  readonly #encoder = new TextEncoder();

  webSocket(): WebSocketConstructor {
    const add = (data: unknown) => {
      if (!this.counting || typeof data !== "string") return;
      const message = JSON.parse(data);
      const kind = message.method === "event" ? String(message.params?.type) : "response";
      const entry = this.totals.get(kind) ?? { bytes: 0, messages: 0 };
      entry.bytes += this.#encoder.encode(data).length;
      entry.messages++;
      this.totals.set(kind, entry);
    };
    return class extends WebSocket {
      constructor(url: string | URL, protocols?: string[] | WebSocketOptions) {
        super(url, protocols as string[]);
        this.addEventListener("message", (event) => add(event.data));
      }
    } as unknown as WebSocketConstructor;
  }
}

await using daedalus = await startDaedalus();
const counter = new BytesByKind();
const client = await daedalus.client();
const watcher = await daedalus.client();
// A client that sends no request, watching as a second tab would: what it receives is
// what every client receives.
const counted = await connect({
  url: daedalus.server.url,
  token: daedalus.token,
  WebSocket: counter.webSocket(),
});
try {
  for (let turn = 0; turn < WARMUP_TURNS; turn++) {
    await daedalusToolTurn(daedalus, client, [client, watcher, counted]);
  }
  counter.counting = true;
  for (let turn = 0; turn < MEASURED_TURNS; turn++) {
    await daedalusToolTurn(daedalus, client, [client, watcher, counted]);
  }
} finally {
  await counted.close();
  await watcher.close();
  await client.close();
}
let total = 0;
const rows = [...counter.totals].sort((a, b) => b[1].bytes - a[1].bytes);
for (const [kind, { bytes, messages }] of rows) {
  total += bytes;
  console.log(
    `${kind.padEnd(26)} ${(bytes / MEASURED_TURNS).toFixed(0).padStart(7)} B/turn` +
      `  ${(messages / MEASURED_TURNS).toFixed(1)} msg/turn`,
  );
}
console.log(`${"total".padEnd(26)} ${(total / MEASURED_TURNS).toFixed(0).padStart(7)} B/turn`);

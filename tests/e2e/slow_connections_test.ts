/**
 * Slow or stalled HTTP connections are closed by a real `daedalus serve` (the scripted
 * fixture, shipped flags, read timeouts shortened through their DAEDALUS_* variables):
 * 300 slowloris sockets — silent ones, dribbled headers, dribbled WebSocket handshakes,
 * dribbled `/rpc` bodies, a second request dribbled after a first answered one — are all
 * closed while `/health` keeps answering; clients that hang up mid-body leave at most one
 * short log line each, never a stack trace.
 */
import assert from "node:assert/strict";
import { makeTempHome, startFixture, WAIT_MS } from "./_harness.ts";
import { delay, waitUntil } from "./_clients.ts";

const TIMEOUTS = { DAEDALUS_HTTP_HEADER_TIMEOUT_MS: "1000", DAEDALUS_HTTP_BODY_TIMEOUT_MS: "1000" };
const SOCKETS_PER_KIND = 60;
const DRIBBLE_EVERY_MS = 200;
/** A dribbler gives up on its own after this many writes (~12 s), so the test is bounded. */
const DRIBBLE_MAX_WRITES = 60;

const encoder = new TextEncoder();

/** One slowloris socket: sends `opening`, then `dribble` every 200 ms until the server closes it. */
class SlowSocket {
  closedByServer = false;
  readonly #conn: Deno.Conn;
  readonly done: Promise<void>;

  constructor(conn: Deno.Conn, opening: string, dribble: string | null) {
    this.#conn = conn;
    this.done = (async () => {
      const reading = this.#readUntilClosed();
      try {
        if (opening !== "") await conn.write(encoder.encode(opening));
        for (let i = 0; dribble !== null && i < DRIBBLE_MAX_WRITES; i++) {
          await delay(DRIBBLE_EVERY_MS);
          if (this.closedByServer) break;
          await conn.write(encoder.encode(dribble));
        }
      } catch {
        // A write after the server closed the socket fails: that is the point.
      }
      await reading;
    })();
  }

  async #readUntilClosed(): Promise<void> {
    const buffer = new Uint8Array(4096);
    try {
      while ((await this.#conn.read(buffer)) !== null) { /* the 408 or an answer */ }
    } catch {
      // Reset by the server.
    }
    this.closedByServer = true;
  }

  close(): void {
    try {
      this.#conn.close();
    } catch {
      // Closed already.
    }
  }
}

Deno.test("300 slowloris sockets are all closed while /health keeps answering", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home, TIMEOUTS);
  const host = `Host: 127.0.0.1:${server.port}\r\n`;
  const kinds: Array<[string, string, string | null]> = [
    ["silent", "", null],
    ["dribbled headers", `GET /health HTTP/1.1\r\n${host}`, "X-Slow: 1\r\n"],
    [
      "dribbled WebSocket handshake",
      `GET /ws HTTP/1.1\r\n${host}Upgrade: websocket\r\nConnection: Upgrade\r\n`,
      "X-Slow: 1\r\n",
    ],
    [
      "dribbled /rpc body",
      `POST /rpc HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{`,
      " ",
    ],
    [
      "second request dribbled after an answered one",
      `GET /health HTTP/1.1\r\n${host}\r\nGET /health HTTP/1.1\r\n`,
      "X-Slow: 1\r\n",
    ],
  ];
  const sockets: SlowSocket[] = [];
  let healthAnswers = 0;
  let healthFailures = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      try {
        // A stalled runtime counts as a failure instead of hanging the poller.
        const response = await fetch(`${server.url}health`, {
          signal: AbortSignal.timeout(WAIT_MS),
        });
        await response.body?.cancel();
        if (response.ok) healthAnswers++;
        else healthFailures++;
      } catch {
        healthFailures++;
      }
      await delay(50);
    }
  })();
  try {
    for (const [, opening, dribble] of kinds) {
      for (let i = 0; i < SOCKETS_PER_KIND; i++) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
        sockets.push(new SlowSocket(conn, opening, dribble));
      }
    }
    const answersBefore = healthAnswers;
    const opened = performance.now();
    await waitUntil(
      "every slow socket to be closed by the server",
      () => sockets.every((socket) => socket.closedByServer),
      () =>
        kinds.map(([name], k) => {
          const open = sockets.slice(k * SOCKETS_PER_KIND, (k + 1) * SOCKETS_PER_KIND)
            .filter((socket) => !socket.closedByServer).length;
          return `${name}: ${open} still open`;
        }).join("\n"),
      20_000,
    );
    const closed = sockets.filter((socket) => socket.closedByServer).length;
    console.log(
      `closed ${closed}/${sockets.length} slowloris sockets ` +
        `${Math.round(performance.now() - opened)} ms after the last opened (timeouts 1000 ms); ` +
        `/health answered ${
          healthAnswers - answersBefore
        } times meanwhile, failed ${healthFailures}`,
    );
    assert.equal(closed, kinds.length * SOCKETS_PER_KIND);
    assert.ok(healthAnswers > answersBefore, "/health answered while the sockets were open");
    assert.equal(healthFailures, 0, "no /health request failed");
  } finally {
    polling = false;
    await poller;
    for (const socket of sockets) socket.close();
    await Promise.all(sockets.map((socket) => socket.done));
  }
});

Deno.test("a client that hangs up mid-body leaves at most one short log line, no stack trace", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const token = await server.token();
  const host = `Host: 127.0.0.1:${server.port}\r\n`;
  const auth = `Authorization: Bearer ${token}\r\n`;
  const cut = [
    `POST /rpc HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"jsonrpc":`,
    `POST /upload HTTP/1.1\r\n${host}${auth}X-File-Name: a.txt\r\nContent-Type: text/plain\r\nContent-Length: 5000\r\n\r\nhello`,
    `POST /rpc HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"jso`,
  ];
  // Both start-up lines (the login URL and how to get a fresh one) come before the count.
  await waitUntil("the login lines", () => server.child.stderr.includes("prints a fresh one"));
  const before = server.child.stderr.length;
  for (const request of cut) {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
    await conn.write(encoder.encode(request));
    await delay(200); // the handler is reading the body now
    conn.close();
  }
  await delay(500);
  const health = await fetch(`${server.url}health`);
  assert.equal(health.status, 200, "the runtime is still serving");
  await health.body?.cancel();
  const logged = server.child.stderr.slice(before);
  const lines = logged.split("\n").filter((line) => line.trim() !== "");
  console.log(`stderr after ${cut.length} cut bodies:\n${logged}`);
  assert.ok(lines.length <= cut.length, `at most one line per cut body:\n${logged}`);
  assert.doesNotMatch(logged, /^\s+at /m, "no stack trace");
  assert.ok(lines.every((line) => line.length < 200), `short lines:\n${logged}`);
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { acceptConnections, type GuardedServer, serveGuarded } from "./connection_guard.ts";
import { within } from "../_test_wait.ts";

const encoder = new TextEncoder();
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TIMEOUT_MS = 300;

async function withGuard(
  test: (server: GuardedServer) => Promise<void>,
  backendParent?: string,
): Promise<void> {
  const server = serveGuarded(
    {
      hostname: "127.0.0.1",
      port: 0,
      headerReadTimeoutMs: TIMEOUT_MS,
      bodyReadTimeoutMs: TIMEOUT_MS,
      backendParent,
    },
    async (request) => {
      if (request.headers.get("upgrade") === "websocket") {
        const { socket, response } = Deno.upgradeWebSocket(request);
        socket.onmessage = (event) => socket.send(`echo ${event.data}`);
        return response;
      }
      if (new URL(request.url).pathname === "/refuse") return new Response(null, { status: 401 });
      const body = await request.text().catch(() => "(body cut)");
      // Work that outlasts the timeouts once the body is in.
      if (new URL(request.url).pathname === "/slow") await delay(TIMEOUT_MS * 3);
      return new Response(`${request.method} ${new URL(request.url).pathname} ${body}`);
    },
  );
  try {
    await test(server);
  } finally {
    await server.shutdown();
  }
}

/** Reads until the server closes the connection (failing after 10 s); returns what it sent. */
async function readToEnd(conn: Deno.Conn): Promise<string> {
  const chunks: string[] = [];
  const buffer = new Uint8Array(4096);
  const decoder = new TextDecoder();
  let gaveUp = false;
  const deadline = setTimeout(() => {
    gaveUp = true;
    conn.close();
  }, 10_000);
  try {
    for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
      chunks.push(decoder.decode(buffer.subarray(0, n)));
    }
  } catch {
    // Reset by the server, or closed by the deadline.
  } finally {
    clearTimeout(deadline);
    if (!gaveUp) conn.close();
  }
  assert.ok(!gaveUp, `the server did not close the connection; it sent: ${chunks.join("")}`);
  return chunks.join("");
}

Deno.test("requests pass through the guard, several on one kept-alive connection", async () => {
  await withGuard(async (server) => {
    const url = `http://127.0.0.1:${server.addr.port}`;
    assert.equal(await (await fetch(`${url}/a`)).text(), "GET /a ");
    const posted = await fetch(`${url}/b`, { method: "POST", body: "hello" });
    assert.equal(await posted.text(), "POST /b hello");
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    await conn.write(encoder.encode(
      "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /2 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n",
    ));
    const answered = await readToEnd(conn);
    assert.match(answered, /GET \/1 [\s\S]*POST \/2 hi/);
    assert.doesNotMatch(answered, /408/, "the idle kept-alive connection is then closed silently");
  });
});

Deno.test("silent, dribbling and body-stalling connections are closed", async () => {
  await withGuard(async (server) => {
    const open = () => Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    const silent = await open();
    const dribbler = await open();
    await dribbler.write(encoder.encode("GET / HTTP/1.1\r\n"));
    const dribbling = setInterval(() => {
      dribbler.write(encoder.encode("X-Slow: 1\r\n")).catch(() => {});
    }, TIMEOUT_MS / 4);
    // Refused before its body was in, then idle: the connection does not stay open.
    const refused = await open();
    await refused.write(
      encoder.encode("POST /refuse HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n"),
    );
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS / 3));
    await refused.write(encoder.encode("abc"));
    const stalled = await open();
    await stalled.write(
      encoder.encode("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc"),
    );
    try {
      const [fromSilent, fromDribbler, fromStalled, fromRefused] = await Promise.all(
        [silent, dribbler, stalled, refused].map(readToEnd),
      );
      assert.match(fromRefused, /^HTTP\/1\.1 401 /, "answered early, then closed");
      assert.match(fromSilent, /^HTTP\/1\.1 408 /);
      assert.match(fromDribbler, /^HTTP\/1\.1 408 /);
      assert.equal(fromStalled, "", "a stalled body is cut without an answer");
    } finally {
      clearInterval(dribbling);
    }
    assert.equal(server.openConnections, 0);
  });
});

Deno.test("a WebSocket outlives the timeouts; shutdown closes it", async () => {
  await withGuard(async (server) => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.addr.port}/ws`);
    const messages: string[] = [];
    const closed = new Promise((resolve) => socket.onclose = resolve);
    await within(new Promise((resolve) => socket.onopen = resolve), "the WebSocket to open");
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 3));
    const echoed = new Promise((resolve) => socket.onmessage = (event) => resolve(event.data));
    socket.send("still here");
    messages.push(String(await within(echoed, "the echo")));
    assert.deepEqual(messages, ["echo still here"]);
    assert.equal(server.openConnections, 1);
    await server.shutdown();
    await within(closed, "the WebSocket to close");
  });
});

Deno.test("a failed accept (too many open files) does not stop the server accepting", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const failures = [new Error("Too many open files (os error 24)"), new Error("reset")];
  const flaky = {
    accept: () => {
      const failure = failures.shift();
      return failure === undefined ? listener.accept() : Promise.reject(failure);
    },
  };
  const accepted: Deno.Conn[] = [];
  let gotOne = () => {};
  const got = new Promise<void>((resolve) => gotOne = resolve);
  const loop = acceptConnections(flaky, () => false, (conn) => {
    accepted.push(conn);
    gotOne();
  }, 1);
  const client = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
  try {
    await within(got, "the connection after two failed accepts");
    assert.equal(accepted.length, 1);
  } finally {
    client.close();
    for (const conn of accepted) conn.close();
    listener.close();
  }
  await within(loop, "the loop to end once the listener is closed");
});

Deno.test("a start sweeps the private folder a killed runtime left; shutdown removes its own", async () => {
  const tempRoot = await Deno.makeTempDir({ prefix: "guard-tmp-" });
  const left = join(tempRoot, "daedalus-http-killed");
  Deno.mkdirSync(left);
  // A socket file nobody listens on, as SIGKILL leaves it (the hard link outlives the close).
  const listener = Deno.listen({ transport: "unix", path: join(left, "live.sock") });
  Deno.linkSync(join(left, "live.sock"), join(left, "http.sock"));
  listener.close();
  try {
    await withGuard(async (server) => {
      const answer = await fetch(`http://127.0.0.1:${server.addr.port}/a`);
      assert.equal(await answer.text(), "GET /a ");
    }, tempRoot);
    // Shutdown awaits the sweep, then removes the guard's own folder: nothing is left.
    const folders = [...Deno.readDirSync(tempRoot)].map((entry) => entry.name);
    assert.deepEqual(folders, [], "the killed runtime's folder and the guard's own are gone");
  } finally {
    await Deno.remove(tempRoot, { recursive: true });
  }
});

Deno.test("a body sent after 100 Continue is answered however long the work takes", async () => {
  await withGuard(async (server) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    await conn.write(encoder.encode(
      "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n" +
        "Connection: close\r\n\r\n",
    ));
    const buffer = new Uint8Array(1024);
    const interim = await within(conn.read(buffer), "100 Continue");
    assert.equal(
      new TextDecoder().decode(buffer.subarray(0, interim ?? 0)),
      "HTTP/1.1 100 Continue\r\n\r\n",
    );
    await conn.write(encoder.encode("hello"));
    const answer = await readToEnd(conn);
    assert.match(answer, /^HTTP\/1\.1 200 [\s\S]*POST \/slow hello$/, "the connection was cut");
  });
});

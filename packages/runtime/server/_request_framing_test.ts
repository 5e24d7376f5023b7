import assert from "node:assert/strict";
import { isInterimResponse, RequestFraming } from "./_request_framing.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

function framing(): RequestFraming {
  return new RequestFraming(1024);
}

Deno.test("a GET ends at its empty line, even when it arrives in pieces", () => {
  const f = framing();
  assert.equal(f.phase, "idle");
  assert.deepEqual(f.feed(bytes("\r\nGET / HT")), { headersCompleted: 0, requestsCompleted: 0 });
  assert.equal(f.phase, "headers", "leading empty lines do not start a request; the G does");
  assert.deepEqual(f.feed(bytes("TP/1.1\r\nHost: x\r\n\r")), {
    headersCompleted: 0,
    requestsCompleted: 0,
  });
  assert.deepEqual(f.feed(bytes("\n")), { headersCompleted: 1, requestsCompleted: 1 });
  assert.equal(f.phase, "idle");
  f.feed(bytes("GET /a HTTP/1.0\nHost: x\n\n"));
  assert.equal(f.phase, "idle", "bare LF line ends work too");
});

Deno.test("a Content-Length body is followed across feeds, and pipelined requests are counted", () => {
  const f = framing();
  f.feed(bytes("POST /rpc HTTP/1.1\r\nContent-Length: 10\r\n\r\n12345"));
  assert.equal(f.phase, "body");
  const progress = f.feed(bytes("67890GET / HTTP/1.1\r\n\r\nGET /x HTTP/1.1\r\n"));
  assert.deepEqual(progress, { headersCompleted: 1, requestsCompleted: 2 });
  assert.equal(f.phase, "headers", "the third request has started");
});

Deno.test("a chunked body ends after its last chunk and trailers", () => {
  const f = framing();
  f.feed(bytes("POST /rpc HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"));
  assert.equal(f.phase, "body");
  f.feed(bytes("5;ext=1\r\nhello\r\n"));
  f.feed(bytes("3\r\nab"));
  assert.equal(f.phase, "body");
  f.feed(bytes("c\r\n0\r\nX-Trailer: 1\r\n"));
  assert.equal(f.phase, "body", "trailers still open");
  assert.deepEqual(f.feed(bytes("\r\n")), { headersCompleted: 0, requestsCompleted: 1 });
  assert.equal(f.phase, "idle");
});

Deno.test("an upgrade waits for its answer: 101 makes a tunnel, anything else goes on", () => {
  const upgrade = "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
  const granted = framing();
  assert.deepEqual(granted.feed(bytes(upgrade)), { headersCompleted: 1, requestsCompleted: 1 });
  assert.equal(granted.phase, "upgrade_requested");
  granted.serverSent(bytes("HTTP/1.1 10"));
  assert.equal(granted.phase, "upgrade_requested", "a status line split over reads is awaited");
  granted.serverSent(bytes("1 Switching Protocols\r\n"));
  assert.equal(granted.phase, "tunnel");
  assert.deepEqual(granted.feed(bytes("\x81\x05hello")), {
    headersCompleted: 0,
    requestsCompleted: 0,
  });
  const refused = framing();
  refused.feed(bytes(upgrade));
  refused.serverSent(bytes("HTTP/1.1 401 Unauthorized\r\n"));
  assert.equal(refused.phase, "idle");
  refused.feed(bytes("GET / HTTP/1.1\r\n"));
  assert.equal(refused.phase, "headers", "the next request is timed again");
});

Deno.test("what the tracker cannot follow is invalid", () => {
  const cases = [
    "GET / HTTP/1.1\r\nX: " + "a".repeat(2000),
    "POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
    "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
    "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
    "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "GET / HTTP/1.1\r\nno colon here\r\n\r\n",
    "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
  ];
  for (const text of cases) {
    const f = framing();
    f.feed(bytes(text));
    assert.equal(f.phase, "invalid", JSON.stringify(text.slice(0, 60)));
  }
});

Deno.test("an interim response is told from an answer", () => {
  assert.ok(isInterimResponse(bytes("HTTP/1.1 100 Continue\r\n\r\n")));
  assert.ok(isInterimResponse(bytes("HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n")));
  assert.ok(!isInterimResponse(bytes("HTTP/1.1 101 Switching Protocols\r\n\r\n")));
  assert.ok(!isInterimResponse(bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n")));
  assert.ok(!isInterimResponse(bytes("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")));
  assert.ok(!isInterimResponse(bytes("HTTP/1.1 100 Contin")), "a cut one is not whole");
});

Deno.test("a header block may be exactly the limit long, in any pieces; one byte more is invalid", () => {
  const head = "GET / HTTP/1.1\r\nX: ";
  const tail = "\r\n\r\n";
  const limit = 64 * 1024;
  const exact = head + "a".repeat(limit - head.length - tail.length) + tail;
  for (const pieceBytes of [1, 1000, limit]) {
    const f = new RequestFraming(limit);
    let completed = 0;
    for (let at = 0; at < exact.length; at += pieceBytes) {
      completed += f.feed(bytes(exact.slice(at, at + pieceBytes))).requestsCompleted;
    }
    assert.deepEqual([f.phase, completed], ["idle", 1], `pieces of ${pieceBytes}`);
    f.feed(bytes("GET /next HTTP/1.1\r\n\r\n"));
    assert.equal(f.phase, "idle", "the next request on the connection is followed too");
  }
  const over = new RequestFraming(limit);
  over.feed(bytes(exact.slice(0, -tail.length) + "a" + tail));
  assert.equal(over.phase, "invalid");
});

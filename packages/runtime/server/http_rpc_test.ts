import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { assertTokenAbsent, headerText, startTestServer, type TestServer } from "./_test_fakes.ts";

async function withServer(
  run: (server: TestServer, post: (body: BodyInit) => Promise<Posted>) => Promise<void>,
  limits: { rpcBodyMaxBytes?: number } = {},
): Promise<void> {
  const server = await startTestServer({ limits });
  const seen: Record<string, string> = {};
  const post = async (body: BodyInit): Promise<Posted> => {
    const response = await fetch(`${server.url}/rpc`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
      body,
    });
    const text = await response.text();
    const index = Object.keys(seen).length;
    seen[`response ${index}`] = `${headerText(response.headers)}\n${text}`;
    return { status: response.status, type: response.headers.get("content-type"), text };
  };
  try {
    await run(server, post);
    assertTokenAbsent(server.token, seen);
  } finally {
    await server.close();
  }
}

interface Posted {
  status: number;
  type: string | null;
  text: string;
}

const call = (id: number | string | undefined, method: string, params?: unknown) => ({
  jsonrpc: "2.0",
  ...(id === undefined ? {} : { id }),
  method,
  ...(params === undefined ? {} : { params }),
});

Deno.test("a single request is answered with its result as application/json", async () => {
  await withServer(async (server, post) => {
    const answer = await post(JSON.stringify(call(7, "test.echo", { x: "y" })));
    assert.equal(answer.status, 200);
    assert.equal(answer.type, "application/json");
    assert.deepEqual(JSON.parse(answer.text), {
      jsonrpc: "2.0",
      id: 7,
      result: { echo: { x: "y" } },
    });
    assert.equal(server.dispatcher.calls[0].session.transport, "http");
  });
});

Deno.test("a batch is dispatched in order; notifications get no entry", async () => {
  await withServer(async (server, post) => {
    const answer = await post(JSON.stringify([
      call(1, "test.echo", { n: 1 }),
      call(undefined, "test.echo", { n: 2 }),
      { jsonrpc: "1.0", id: 3, method: "test.echo" },
      call("four", "test.fail"),
      call(undefined, "test.fail"),
      call(5, "no.such_method"),
      call(6, "test.echo", { n: 6 }),
    ]));
    assert.equal(answer.status, 200);
    const responses = JSON.parse(answer.text);
    assert.deepEqual(responses.map((response: { id: unknown }) => response.id), [
      1,
      3,
      "four",
      5,
      6,
    ]);
    assert.equal(responses[1].error.code, -32600, "the malformed entry is an invalid request");
    assert.equal(responses[2].error.data.reasonCode, "thread_not_found");
    assert.equal(responses[3].error.code, -32601);
    assert.deepEqual(responses[4].result, { echo: { n: 6 } });
    assert.deepEqual(
      server.dispatcher.calls.map((seen) => seen.params),
      [{ n: 1 }, { n: 2 }, undefined, undefined, undefined, { n: 6 }],
      "every well-formed call ran, in order, notifications included",
    );
  });
});

Deno.test("a message of notifications only is answered 204 with no body", async () => {
  await withServer(async (server, post) => {
    const batch = await post(JSON.stringify([call(undefined, "test.echo"), call(undefined, "x")]));
    assert.equal(batch.status, 204);
    assert.equal(batch.text, "");
    const single = await post(JSON.stringify(call(undefined, "test.echo")));
    assert.equal(single.status, 204);
    assert.equal(server.dispatcher.calls.length, 3);
  });
});

Deno.test("a parse error is one error response with id null, HTTP 200", async () => {
  await withServer(async (_server, post) => {
    const cases: Array<[string, number, string]> = [
      ['{"jsonrpc":"2.0","id":1,', -32700, "invalid_json"],
      ['{"jsonrpc":"2.0","id":1,"method":"m","params":{"n":NaN}}', -32700, "non_finite_number"],
      ["[]", -32600, "invalid_request"],
    ];
    for (const [body, code, reasonCode] of cases) {
      const answer = await post(body);
      assert.equal(answer.status, 200);
      const response = JSON.parse(answer.text);
      assert.equal(response.id, null);
      assert.equal(response.error.code, code);
      assert.equal(response.error.data.reasonCode, reasonCode);
    }
  });
});

Deno.test("an unexpected error is -32603 internal_error without its message", async () => {
  await withServer(async (server, post) => {
    const crash = JSON.parse((await post(JSON.stringify(call(1, "test.crash")))).text);
    assert.deepEqual(crash.error, {
      code: -32603,
      message: "Internal error",
      data: { reasonCode: "internal_error" },
    });
    const nan = JSON.parse((await post(JSON.stringify(call(2, "test.nan")))).text);
    assert.equal(nan.id, 2);
    assert.equal(nan.error.data.reasonCode, "internal_error", "an unencodable result is internal");
    const reported = server.reports.map((report) => String(report.error));
    assert.ok(reported.some((text) => text.includes("secret internal detail")), "it is reported");
  });
});

Deno.test("initialize over HTTP answers its result; another version is -32001", async () => {
  await withServer(async (server, post) => {
    server.events.emit(4);
    const ok = JSON.parse(
      (await post(JSON.stringify(call(1, "initialize", { protocolVersion: 1 }))))
        .text,
    );
    assert.deepEqual(ok.result, {
      protocolVersion: 1,
      server: { name: "daedalus-runtime", version: "0.0.0-test" },
      latestSeq: 4,
      eventEncoding: "full",
    });
    const old = JSON.parse(
      (await post(JSON.stringify(call(2, "initialize", { protocolVersion: 2 }))))
        .text,
    );
    assert.equal(old.error.code, -32001);
    assert.equal(old.error.data.reasonCode, "unsupported_protocol_version");
    const bad = JSON.parse((await post(JSON.stringify(call(3, "initialize", {})))).text);
    assert.equal(bad.error.code, -32602);
    assert.equal(server.dispatcher.calls.length, 0, "initialize never reaches the dispatcher");
  });
});

Deno.test("afterResponse runs for each call once the response is built", async () => {
  await withServer(async (server, post) => {
    const published: JournalEvent[] = [];
    const stop = server.events.subscribe((event) => published.push(event));
    const answer = await post(JSON.stringify([
      call(1, "test.emit", { count: 2 }),
      call(undefined, "test.echo"),
      call(2, "test.emit", { count: 1 }),
    ]));
    stop();
    const responses = JSON.parse(answer.text);
    assert.deepEqual(responses.map((response: { result: unknown }) => response.result), [
      { seqs: [1, 2] },
      { seqs: [3] },
    ]);
    assert.deepEqual(server.dispatcher.afterResponses, ["test.emit", "test.echo", "test.emit"]);
    assert.deepEqual(published.map((event) => event.seq), [1, 2, 3]);
  });
});

Deno.test("a body over the limit is refused with 413 JSON", async () => {
  await withServer(async (server, post) => {
    const big = JSON.stringify(call(1, "test.echo", { pad: "x".repeat(2_000) }));
    const declared = await post(big);
    assert.equal(declared.status, 413, "a declared Content-Length over the limit");
    assert.equal(JSON.parse(declared.text).error.code, "payload_too_large");
    const streamed = await post(
      new ReadableStream({
        start(controller) {
          const bytes = new TextEncoder().encode(big);
          controller.enqueue(bytes.subarray(0, 600));
          controller.enqueue(bytes.subarray(600));
          controller.close();
        },
      }),
    );
    assert.equal(streamed.status, 413, "a chunked body that grows over the limit");
    const fits = await post(JSON.stringify(call(2, "test.echo", { pad: "x".repeat(100) })));
    assert.equal(fits.status, 200);
    assert.equal(server.dispatcher.calls.length, 1, "the refused bodies were not dispatched");
  }, { rpcBodyMaxBytes: 1024 });
});

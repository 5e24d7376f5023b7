import assert from "node:assert/strict";
import { allowedHostHeaders, checkOrigin, formatHostHeader } from "./guards.ts";
import { rawHttpRequest, startTestServer } from "./_test_fakes.ts";

Deno.test("the accepted Host values are the loopback names and the bound name with the port", () => {
  assert.deepEqual(
    [...allowedHostHeaders({ hostname: "127.0.0.1", port: 7420 })].sort(),
    ["127.0.0.1:7420", "[::1]:7420", "localhost:7420"],
  );
  assert.deepEqual(
    [...allowedHostHeaders({ hostname: "192.168.1.20", port: 8000, extraHostnames: ["Box.lan"] })]
      .sort(),
    ["127.0.0.1:8000", "192.168.1.20:8000", "[::1]:8000", "box.lan:8000", "localhost:8000"],
  );
  assert.ok(allowedHostHeaders({ hostname: "127.0.0.1", port: 80 }).has("localhost"));
  assert.equal(formatHostHeader("fe80::1", 9), "[fe80::1]:9");
});

Deno.test("checkOrigin compares the Origin with http:// and the Host", () => {
  assert.equal(checkOrigin(undefined, "127.0.0.1:7420"), "absent");
  assert.equal(checkOrigin("http://127.0.0.1:7420", "127.0.0.1:7420"), "same");
  assert.equal(checkOrigin("http://LOCALHOST:7420", "localhost:7420"), "same");
  assert.equal(checkOrigin("http://localhost:7420", "127.0.0.1:7420"), "foreign");
  assert.equal(checkOrigin("https://127.0.0.1:7420", "127.0.0.1:7420"), "foreign");
  assert.equal(checkOrigin("http://127.0.0.1:7421", "127.0.0.1:7420"), "foreign");
  assert.equal(checkOrigin("null", "127.0.0.1:7420"), "foreign");
});

Deno.test("a request with a foreign Host is refused with 421 on every route", async () => {
  const server = await startTestServer();
  try {
    const hosts = [
      "evil.example:" + server.port,
      "127.0.0.1:1",
      "127.0.0.1",
      "localhost.:" + server.port,
      "127.0.0.2:" + server.port,
    ];
    for (const host of hosts) {
      for (const head of ["GET /health HTTP/1.1", "POST /rpc HTTP/1.1", "GET /ws HTTP/1.1"]) {
        const response = await rawHttpRequest(
          server.port,
          `${head}\r\nHost: ${host}\r\nAuthorization: Bearer ${server.token}`,
        );
        assert.equal(response.status, 421, `${head} with Host ${host} is refused`);
        assert.equal(response.headers.get("content-type"), "application/json");
        assert.equal(JSON.parse(response.body).error.code, "host_not_allowed");
        assert.ok(!response.raw.includes(server.token), "the token is not echoed");
      }
    }
  } finally {
    await server.close();
  }
});

Deno.test("each loopback name with the bound port passes the Host guard", async () => {
  const server = await startTestServer();
  try {
    for (const host of ["127.0.0.1", "localhost", "LocalHost", "[::1]"]) {
      const response = await rawHttpRequest(
        server.port,
        `GET /health HTTP/1.1\r\nHost: ${host}:${server.port}`,
      );
      assert.equal(response.status, 200, `Host ${host} is accepted`);
    }
  } finally {
    await server.close();
  }
});

Deno.test("a request without a Host header is refused", async () => {
  const server = await startTestServer();
  try {
    for (const version of ["HTTP/1.0", "HTTP/1.1"]) {
      const response = await rawHttpRequest(server.port, `GET /health ${version}`);
      assert.equal(response.status, 421, `${version} without Host is refused`);
      assert.equal(JSON.parse(response.body).error.code, "host_not_allowed");
    }
  } finally {
    await server.close();
  }
});

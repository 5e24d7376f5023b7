import assert from "node:assert/strict";
import { UploadedAttachment } from "@daedalus/protocol";
import { startTestServer, type TestServer } from "./_test_fakes.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 7]);

async function uploaded(server: TestServer, body: BodyInit): Promise<UploadedAttachment> {
  const response = await fetch(`${server.url}/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}` },
    body,
  });
  return UploadedAttachment.parse(await response.json());
}

async function sessionCookie(server: TestServer): Promise<string> {
  const response = await fetch(`${server.url}/auth/session`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}` },
  });
  await response.body?.cancel();
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

async function status(response: Response): Promise<number> {
  await response.body?.cancel();
  return response.status;
}

Deno.test("GET /attachments serves an uploaded image by its hash name, locked down", async () => {
  const server = await startTestServer();
  try {
    const image = await uploaded(server, PNG);
    const url = `${server.url}/attachments/${image.sha256}.png`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${server.token}` } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "image/png");
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.match(response.headers.get("content-security-policy") ?? "", /sandbox/);
    assert.match(response.headers.get("cache-control") ?? "", /private/);
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), PNG);
    assert.equal(await status(await fetch(url)), 401, "a credential is needed");
  } finally {
    await server.close();
  }
});

Deno.test("GET /attachments serves nothing but stored images", async () => {
  const server = await startTestServer();
  try {
    const text = await uploaded(server, "plain notes");
    const auth = { authorization: `Bearer ${server.token}` };
    for (
      const name of [
        `${text.sha256}.txt`, // text is not an image
        `${"0".repeat(64)}.png`, // no such file
        "..%2Fauth.json",
        `${text.sha256.toUpperCase()}.png`,
        "x.png",
      ]
    ) {
      assert.equal(
        await status(await fetch(`${server.url}/attachments/${name}`, { headers: auth })),
        404,
        name,
      );
    }
  } finally {
    await server.close();
  }
});

Deno.test("a cookie without Origin reads an image only as a same-origin embed", async () => {
  const server = await startTestServer();
  try {
    const image = await uploaded(server, PNG);
    const cookie = await sessionCookie(server);
    const url = `${server.url}/attachments/${image.sha256}.png`;
    assert.equal(await status(await fetch(url, { headers: { cookie } })), 403);
    assert.equal(
      await status(await fetch(url, { headers: { cookie, "sec-fetch-site": "cross-site" } })),
      403,
    );
    assert.equal(
      await status(await fetch(url, { headers: { cookie, "sec-fetch-site": "same-origin" } })),
      200,
    );
    // The embed rule is this route's alone: /rpc still needs the Origin with a cookie.
    const rpc = await fetch(`${server.url}/rpc`, {
      method: "POST",
      headers: { cookie, "sec-fetch-site": "same-origin", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "provider.list", params: {} }),
    });
    assert.equal(await status(rpc), 403);
  } finally {
    await server.close();
  }
});

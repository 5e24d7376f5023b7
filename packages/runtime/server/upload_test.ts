import assert from "node:assert/strict";
import { ATTACHMENT_MAX_BYTES, UploadedAttachment } from "@daedalus/protocol";
import { startTestServer, type TestServer } from "./_test_fakes.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 7]);
const IS_WINDOWS = Deno.build.os === "windows";

function upload(server: TestServer, body: BodyInit | null, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, ...headers },
    body,
  });
}

async function refusal(response: Response): Promise<[number, string]> {
  const body = await response.json();
  return [response.status, body.error?.code];
}

async function storedFiles(server: TestServer): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(`${server.home}/attachments`)))
      .map((entry) => entry.name).sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

Deno.test("POST /upload needs a credential and the server's own Origin", async () => {
  const server = await startTestServer();
  try {
    const anonymous = await fetch(`${server.url}/upload`, { method: "POST", body: "hello" });
    assert.deepEqual(await refusal(anonymous), [401, "unauthorized"]);
    const foreign = await upload(server, "hello", { origin: "http://evil.example" });
    assert.deepEqual(await refusal(foreign), [403, "origin_not_allowed"]);
    assert.deepEqual(await storedFiles(server), [], "nothing was stored");
  } finally {
    await server.close();
  }
});

Deno.test("too large, empty and binary uploads are refused with stable codes, nothing written", async () => {
  const server = await startTestServer();
  try {
    const declared = await upload(server, new Uint8Array(ATTACHMENT_MAX_BYTES + 1).fill(0x61));
    assert.deepEqual(await refusal(declared), [413, "payload_too_large"]);
    // Without a Content-Length the limit is enforced while the chunks stream in.
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    const streamed = await upload(
      server,
      ReadableStream.from((function* () {
        for (let i = 0; i < 9; i++) yield chunk;
      })()),
    );
    assert.deepEqual(await refusal(streamed), [413, "payload_too_large"]);
    assert.deepEqual(await refusal(await upload(server, "")), [400, "attachment_empty"]);
    const binary = await upload(server, new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
    assert.deepEqual(await refusal(binary), [415, "attachment_not_supported"]);
    const latin1 = await upload(server, new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    assert.deepEqual(await refusal(latin1), [415, "attachment_not_supported"]);
    const badName = await upload(server, "hi", { "x-file-name": "%E0%A4%A" });
    assert.deepEqual(await refusal(badName), [400, "invalid_request"]);
    assert.deepEqual(await storedFiles(server), [], "no file or temp file is left behind");
  } finally {
    await server.close();
  }
});

Deno.test("an image is sniffed, stored content-addressed and owner-only, idempotently", async () => {
  const server = await startTestServer();
  try {
    const response = await upload(server, PNG, {
      "content-type": "application/octet-stream",
      "x-file-name": encodeURIComponent("../截图 1.png"),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const uploaded = UploadedAttachment.parse(await response.json());
    assert.equal(uploaded.kind, "image");
    assert.equal(uploaded.mimeType, "image/png", "the content decides the type");
    assert.equal(uploaded.size, PNG.length);
    assert.equal(uploaded.name, "截图 1.png", "the name loses its directory part");
    assert.equal(uploaded.path, `${server.home}/attachments/${uploaded.sha256}.png`);
    assert.deepEqual(await Deno.readFile(uploaded.path), PNG);
    if (!IS_WINDOWS) {
      assert.equal((await Deno.stat(uploaded.path)).mode! & 0o777, 0o600, "file is 0600");
      const dirMode = (await Deno.stat(`${server.home}/attachments`)).mode! & 0o777;
      assert.equal(dirMode & 0o077, 0, "the directory is not group/other accessible");
    }
    const again = UploadedAttachment.parse(await (await upload(server, PNG)).json());
    assert.equal(again.path, uploaded.path, "same bytes, same path");
    assert.equal(again.name, "attachment", "no name header: a neutral name");
    assert.deepEqual(await storedFiles(server), [`${uploaded.sha256}.png`]);
  } finally {
    await server.close();
  }
});

Deno.test("UTF-8 text keeps a declared text type, otherwise text/plain", async () => {
  const server = await startTestServer();
  try {
    const markdown = await upload(server, "# 笔记\nship it", {
      "content-type": "text/markdown; charset=utf-8",
      "x-file-name": "notes.md",
    });
    const notes = UploadedAttachment.parse(await markdown.json());
    assert.deepEqual(
      [notes.kind, notes.mimeType, notes.name, notes.path.endsWith(".txt")],
      ["text", "text/markdown", "notes.md", true],
    );
    assert.equal(await Deno.readTextFile(notes.path), "# 笔记\nship it");
    const data = await upload(server, "a,b\n1,2", { "content-type": "application/octet-stream" });
    assert.equal(UploadedAttachment.parse(await data.json()).mimeType, "text/plain");
  } finally {
    await server.close();
  }
});

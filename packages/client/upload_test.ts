import assert from "node:assert/strict";
import { ATTACHMENT_MAX_BYTES } from "@daedalus/protocol";
import { ClientError } from "./errors.ts";
import { uploadAttachment } from "./upload.ts";

const SHA = "a".repeat(64);

function recordingFetch(status: number, answer: unknown) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(new Response(JSON.stringify(answer), { status }));
  };
  return { calls, fetch };
}

Deno.test("uploadAttachment posts the bytes with name and type and validates the answer", async () => {
  const stored = {
    kind: "text",
    path: `/home/u/.daedalus/attachments/${SHA}.txt`,
    mimeType: "text/markdown",
    size: 7,
    sha256: SHA,
    name: "笔记.md",
  };
  const { calls, fetch } = recordingFetch(200, stored);
  const file = new File(["# Notes"], "笔记.md", { type: "text/markdown" });
  const answer = await uploadAttachment(file, { url: "http://127.0.0.1:7420/#token=x", fetch });
  assert.deepEqual(answer, stored);
  assert.equal(calls[0]?.url, "http://127.0.0.1:7420/upload", "no fragment is sent on");
  const headers = calls[0]?.init.headers as Record<string, string>;
  assert.equal(headers["x-file-name"], encodeURIComponent("笔记.md"));
  assert.equal(headers["content-type"], "text/markdown");
  assert.equal(headers.authorization, undefined, "no token: the cookie authenticates");
  assert.equal(calls[0]?.init.body, file);
});

Deno.test("uploadAttachment turns refusals into upload_refused with status and reason", async () => {
  const { fetch } = recordingFetch(415, {
    error: { code: "attachment_not_supported", message: "Only images and text" },
  });
  const error = await uploadAttachment(new Blob([new Uint8Array([0, 1])]), {
    url: "http://127.0.0.1:7420",
    token: "t",
    fetch,
  }).catch((failure: unknown) => failure);
  assert.ok(error instanceof ClientError, "a ClientError is thrown");
  assert.deepEqual([error.code, error.status, error.reason, error.message], [
    "upload_refused",
    415,
    "attachment_not_supported",
    "Only images and text",
  ]);
  const malformed = recordingFetch(200, { path: "/x" });
  await assert.rejects(
    uploadAttachment(new Blob(["x"]), { url: "http://127.0.0.1:7420", fetch: malformed.fetch }),
    (failure: unknown) => failure instanceof ClientError && failure.code === "invalid_message",
  );
});

Deno.test("a file over 8 MiB is refused before anything is sent", async () => {
  const { calls, fetch } = recordingFetch(200, {});
  const big = new Blob([new Uint8Array(ATTACHMENT_MAX_BYTES + 1)]);
  await assert.rejects(
    uploadAttachment(big, { url: "http://127.0.0.1:7420", fetch }),
    (failure: unknown) =>
      failure instanceof ClientError && failure.reason === "payload_too_large" &&
      failure.status === 413,
  );
  assert.equal(calls.length, 0, "nothing was posted");
});

import assert from "node:assert/strict";
import { Hono } from "hono";
import { type GatewayEnv, gatewayKeyAuth } from "./key_auth.ts";
import { GatewayKeyStore } from "./key_store.ts";
import { KeyRateLimiter } from "./rate_limiter.ts";
import { ConversationOwners } from "./conversation_owners.ts";
import { difyAttachments, difyFileRoutes, REMOTE_URL_REFUSED } from "./dify_files.ts";

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (ch) => ch.charCodeAt(0),
);

async function setup(maxFileBytes?: number) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-dify-files-" });
  const keys = await GatewayKeyStore.open(`${home}/gateway_keys.json`);
  const base = { providerId: "p", modelId: "m", permission: "ask" } as const;
  const made = await keys.create("app", base);
  const other = await keys.create("other", base);
  const owners = await ConversationOwners.open(`${home}/gateway_conversations.json`);
  const app = new Hono<GatewayEnv>();
  app.use(
    "*",
    gatewayKeyAuth({ keys, limiter: new KeyRateLimiter({ perMinute: 600, burst: 100 }) }),
  );
  app.route(
    "/",
    difyFileRoutes({
      attachmentsDir: `${home}/attachments`,
      owners,
      maxFileBytes,
      now: () => 1_700_000_000_000,
    }),
  );
  const upload = (form: FormData | string, key = made.key, contentType?: string) =>
    app.request("/files/upload", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${key}`,
        ...(contentType ? { "Content-Type": contentType } : {}),
      },
      body: form,
    });
  return { home, made, other, owners, upload };
}

function form(parts: Record<string, string | Blob | [Blob, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (Array.isArray(value)) data.append(name, value[0], value[1]);
    else data.append(name, value);
  }
  return data;
}

Deno.test("Dify upload: an image is stored as an attachment and answered in Dify's shape", async () => {
  const { home, made, owners, upload } = await setup();
  const response = await upload(
    form({ file: [new Blob([PNG], { type: "image/png" }), "dir/cat.png"], user: "u1" }),
  );
  assert.equal(response.status, 201);
  const body = await response.json();
  assert.match(body.id, /^[0-9a-f-]{36}$/);
  assert.deepEqual({ ...body, id: "" }, {
    id: "",
    name: "cat.png",
    size: PNG.byteLength,
    extension: "png",
    mime_type: "image/png",
    created_by: "u1",
    created_at: 1_700_000_000,
  });
  const owner = { keyId: made.gatewayKey.keyId, user: "u1" };
  const record = owners.upload(body.id, owner);
  assert.ok(record, "the upload was not remembered for its key and user");
  assert.equal(record.attachment.kind, "image");
  assert.ok(record.attachment.path.startsWith(`${home}/attachments/`), record.attachment.path);
  assert.deepEqual(await Deno.readFile(record.attachment.path), PNG);
  const reopened = await ConversationOwners.open(`${home}/gateway_conversations.json`);
  assert.deepEqual(
    reopened.upload(body.id, owner)?.attachment,
    record.attachment,
    "lost on restart",
  );
});

Deno.test("Dify upload: refusals use Dify's codes", async () => {
  const { upload } = await setup(100);
  const cases: [string, FormData | string, number, string, string?][] = [
    ["no file", form({ user: "u1" }), 400, "no_file_uploaded"],
    ["a text field for file", form({ file: "abc", user: "u1" }), 400, "no_file_uploaded"],
    ["no user", form({ file: [new Blob([PNG]), "a.png"] }), 400, "invalid_param"],
    ["an empty file", form({ file: [new Blob([]), "a.png"], user: "u1" }), 400, "no_file_uploaded"],
    [
      "too large",
      form({ file: [new Blob([new Uint8Array(101).fill(65)]), "a.txt"], user: "u1" }),
      413,
      "file_too_large",
    ],
    [
      "binary",
      form({ file: [new Blob([new Uint8Array([0, 1, 2, 255])]), "a.bin"], user: "u1" }),
      415,
      "unsupported_file_type",
    ],
    ["not multipart", "{}", 400, "no_file_uploaded", "application/json"],
  ];
  const two = form({ user: "u1" });
  two.append("file", new Blob([PNG]), "a.png");
  two.append("file", new Blob([PNG]), "b.png");
  cases.push(["two files", two, 400, "too_many_files"]);
  for (const [what, body, status, code, type] of cases) {
    const response = await upload(body, undefined, type);
    assert.equal(response.status, status, what);
    const json = await response.json();
    assert.equal(json.code, code, `${what}: ${JSON.stringify(json)}`);
    assert.equal(json.status, status, what);
  }
});

Deno.test("Dify files: local_file of the caller's own upload becomes an attachment; others are refused", async () => {
  const { made, other, owners, upload } = await setup();
  const response = await upload(form({ file: [new Blob([PNG]), "cat.png"], user: "u1" }));
  const { id } = await response.json();
  const owner = { keyId: made.gatewayKey.keyId, user: "u1" };
  const local = { type: "image", transfer_method: "local_file", upload_file_id: id } as const;
  const found = difyAttachments([local], owner, owners);
  assert.ok(found.ok);
  assert.equal(found.attachments.length, 1);
  assert.equal(found.attachments[0]!.kind, "image");
  assert.equal(found.attachments[0]!.mimeType, "image/png");
  const cases: [string, Parameters<typeof difyAttachments>[0], typeof owner, RegExp][] = [
    ["another user", [local], { ...owner, user: "u2" }, /^files\.0: /],
    ["another key", [local], { keyId: other.gatewayKey.keyId, user: "u1" }, /^files\.0: /],
    ["an unknown id", [{ ...local, upload_file_id: crypto.randomUUID() }], owner, /^files\.0: /],
    [
      "a remote URL",
      [{ type: "image", transfer_method: "remote_url", url: "http://127.0.0.1/x.png" }],
      owner,
      /does not fetch URLs/,
    ],
  ];
  for (const [what, files, caller, message] of cases) {
    const refused = difyAttachments(files, caller, owners);
    assert.ok(!refused.ok, `${what} was accepted`);
    assert.equal(refused.error.code, "invalid_param", what);
    assert.match(refused.error.message, message, what);
  }
  assert.ok(REMOTE_URL_REFUSED.includes("/files/upload"), "the refusal must say what to do");
});

import assert from "node:assert/strict";
import { ATTACHMENT_MAX_BYTES, type Item, RpcError } from "@daedalus/protocol";
import { inspectAttachments } from "./inspect.ts";
import { renderAttachments } from "./render.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function files() {
  const dir = await Deno.makeTempDir({ prefix: "daedalus-attach-" });
  await Deno.writeFile(`${dir}/a.png`, PNG);
  await Deno.writeTextFile(`${dir}/notes.md`, "# Notes\nship it");
  await Deno.writeFile(`${dir}/fake.png`, new TextEncoder().encode("not a png"));
  await Deno.writeFile(`${dir}/latin1.txt`, new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  return dir;
}

function refused(field: string, message: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, -32602);
    assert.equal(error.reasonCode, "attachment_invalid");
    assert.equal(error.data.field, field);
    assert.match(error.message, message);
    return true;
  };
}

Deno.test("attachments are fingerprinted: kind, path, mimeType, size, sha256", async () => {
  const dir = await files();
  const [image, text] = await inspectAttachments([
    { kind: "image", path: `${dir}/a.png`, mimeType: "image/PNG" },
    { kind: "text", path: `${dir}/notes.md`, mimeType: "text/markdown" },
  ]);
  assert.deepEqual(
    { ...image, sha256: image!.sha256.length },
    { kind: "image", path: `${dir}/a.png`, mimeType: "image/png", size: PNG.length, sha256: 64 },
  );
  assert.equal(text!.size, 15);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("bad attachments are refused naming the attachment and the problem", async () => {
  const dir = await files();
  const cases: [Parameters<typeof inspectAttachments>[0][number], RegExp][] = [
    [{ kind: "image", path: "relative.png", mimeType: "image/png" }, /absolute/],
    [{ kind: "image", path: `${dir}/missing.png`, mimeType: "image/png" }, /cannot be read/],
    [{ kind: "image", path: dir, mimeType: "image/png" }, /not a regular file/],
    [{ kind: "image", path: `${dir}/fake.png`, mimeType: "image/png" }, /not a image\/png image/],
    [{ kind: "image", path: `${dir}/a.png`, mimeType: "image/tiff" }, /must be one of/],
    [{ kind: "text", path: `${dir}/a.png`, mimeType: "application/octet-stream" }, /text MIME/],
    [{ kind: "text", path: `${dir}/latin1.txt`, mimeType: "text/plain" }, /not UTF-8/],
  ];
  for (const [input, message] of cases) {
    await assert.rejects(
      () =>
        inspectAttachments([
          { kind: "text", path: `${dir}/notes.md`, mimeType: "text/plain" },
          input,
        ]),
      refused("attachments[1].path", message),
    );
  }
  const big = `${dir}/big.txt`;
  await Deno.writeFile(big, new Uint8Array(ATTACHMENT_MAX_BYTES + 1).fill(0x61));
  await assert.rejects(
    () => inspectAttachments([{ kind: "text", path: big, mimeType: "text/plain" }]),
    refused("attachments[0].path", /larger than/),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("images reach vision models as data URLs; otherwise, or once changed, a note", async () => {
  const dir = await files();
  const attachments = await inspectAttachments([{
    kind: "image",
    path: `${dir}/a.png`,
    mimeType: "image/png",
  }]);
  const item = {
    id: "item_" + "1".repeat(32),
    role: "user",
    data: { attachments },
  } as unknown as Item;
  const vision = await renderAttachments([item], true);
  const part = vision.get(item.id)?.[0];
  assert.equal(part?.type, "image_url");
  assert.ok(part?.type === "image_url" && part.url.startsWith("data:image/png;base64,iVBORw0KGgo"));
  const plain = await renderAttachments([item], false);
  const note = plain.get(item.id)?.[0];
  assert.ok(
    note?.type === "text" && note.text.includes(`${dir}/a.png`) &&
      note.text.includes("does not take images"),
  );
  await Deno.writeFile(`${dir}/a.png`, new Uint8Array([...PNG, 9]));
  const changed = (await renderAttachments([item], true)).get(item.id)?.[0];
  assert.ok(changed?.type === "text" && changed.text.includes("changed after it was attached"));
  await Deno.remove(`${dir}/a.png`);
  const gone = (await renderAttachments([item], true)).get(item.id)?.[0];
  assert.ok(gone?.type === "text" && gone.text.includes("no longer readable"));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a tool result's recorded images render for vision models only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "daedalus_tool_images_" });
  try {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const path = `${dir}/itm-image-1.png`;
    await Deno.writeFile(path, bytes);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    const sha256 = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
    const result = {
      id: "item_result",
      kind: "tool_result",
      role: "tool",
      data: { images: [{ kind: "image", path, mimeType: "image/png", size: 7, sha256 }] },
    } as unknown as Item;
    const shown = await renderAttachments([result], true);
    assert.equal(shown.get("item_result")?.[0]?.type, "image_url", "a vision model sees it");
    const hidden = await renderAttachments([result], false);
    assert.equal(hidden.has("item_result"), false, "others read the result's note");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

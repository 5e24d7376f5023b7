import assert from "node:assert/strict";
import { ATTACHMENT_MAX_BYTES } from "@daedalus/client";
import { checkFiles, formatBytes } from "./attachment_rules.ts";

const file = (name: string, size = 10) => ({ name, size });

Deno.test("checkFiles: too large files are refused, the rest up to 8 per message", () => {
  const checked = checkFiles(6, [
    file("a.txt"),
    file("huge.bin", ATTACHMENT_MAX_BYTES + 1),
    file("b.txt"),
    file("c.txt"),
  ]);
  assert.deepEqual(checked.accepted.map((f) => f.name), ["a.txt", "b.txt"]);
  assert.deepEqual(checked.tooLarge, ["huge.bin"]);
  assert.deepEqual(checked.overCount, ["c.txt"]);
  assert.deepEqual(checkFiles(0, [file("max", ATTACHMENT_MAX_BYTES)]).accepted.length, 1);
});

Deno.test("formatBytes: B, KB and MB, one decimal only for small values", () => {
  assert.equal(formatBytes(0), "0 B");
  assert.equal(formatBytes(1023), "1023 B");
  assert.equal(formatBytes(1536), "1.5 KB");
  assert.equal(formatBytes(20 * 1024), "20 KB");
  assert.equal(formatBytes(ATTACHMENT_MAX_BYTES), "8 MB");
});

import assert from "node:assert/strict";
import { outputMask } from "./output_mask.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("output masking keeps the byte length and hides the whole key", () => {
  const key = "sk-canary-0123456789abcdef";
  const mask = outputMask(() => [key]);
  const bytes = encode(`api_key: ${key}\nnext 日本 line`);
  const masked = mask(bytes);
  assert.ok(masked !== null);
  assert.equal(masked.length, bytes.length);
  assert.equal(decode(masked), `api_key: [redacted]${"*".repeat(key.length - 10)}\nnext 日本 line`);
});

Deno.test("output masking finds embedded pieces and values registered later", () => {
  const values = ["sk-canary-0123456789abcdef"];
  const mask = outputMask(() => values);
  assert.equal(mask(encode("nothing here")), null);
  assert.equal(decode(mask(encode("x 0123456789ab y"))!), "x [redacted]** y");
  values.push("f".repeat(64));
  assert.equal(decode(mask(encode(`t=${"f".repeat(64)};`))!), `t=[redacted]${"*".repeat(54)};`);
});

Deno.test("output masking leaves invalid UTF-8 around a key byte for byte", () => {
  const key = "tok_abcdefgh12345";
  const mask = outputMask(() => [key]);
  const bytes = new Uint8Array([0xff, 0x80, ...encode(key), 0xc3]);
  const masked = mask(bytes)!;
  assert.deepEqual([...masked.subarray(0, 2)], [0xff, 0x80]);
  assert.equal(masked[masked.length - 1], 0xc3);
  assert.equal(decode(masked.subarray(2, -1)), `[redacted]${"*".repeat(key.length - 10)}`);
});

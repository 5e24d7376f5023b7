import assert from "node:assert/strict";
import { decodeStrictJson, encodeStrictJson, StrictJsonError } from "./json_codec.ts";

function rejects(text: string, code: string, options = {}) {
  assert.throws(
    () => decodeStrictJson(text, options),
    (error: unknown) => error instanceof StrictJsonError && error.code === code,
    `expected ${code} for ${text.slice(0, 40)}`,
  );
}

Deno.test("decodeStrictJson accepts ordinary JSON, including strings that look like bad input", () => {
  assert.deepEqual(decodeStrictJson('{"a":[1,2.5,-3],"b":"NaN Infinity [[[["}'), {
    a: [1, 2.5, -3],
    b: "NaN Infinity [[[[",
  });
  assert.deepEqual(decodeStrictJson(new TextEncoder().encode('{"k":"\\"}"}')), { k: '"}' });
  assert.equal(decodeStrictJson(String(Number.MAX_SAFE_INTEGER)), Number.MAX_SAFE_INTEGER);
  assert.equal(decodeStrictJson(String(-Number.MAX_SAFE_INTEGER)), -Number.MAX_SAFE_INTEGER);
});

Deno.test("decodeStrictJson refuses integers beyond ±(2^53 − 1)", () => {
  rejects('{"limit": 9007199254740992}', "unsafe_integer");
  rejects("[-9007199254740993]", "unsafe_integer");
  rejects("1e300", "unsafe_integer");
});

Deno.test("decodeStrictJson refuses NaN, Infinity and overflowing numbers", () => {
  rejects('{"limit": NaN}', "non_finite_number");
  rejects('{"limit": -Infinity}', "non_finite_number");
  rejects('{"limit": 1e400}', "non_finite_number");
});

Deno.test("decodeStrictJson refuses nesting deeper than the limit, and accepts the limit", () => {
  const at = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
  assert.ok(decodeStrictJson(at(64)));
  rejects(at(65), "nesting_too_deep");
  rejects(at(100_000), "nesting_too_deep");
  assert.ok(decodeStrictJson(at(3), { maxDepth: 3 }));
  rejects(at(4), "nesting_too_deep", { maxDepth: 3 });
});

Deno.test("decodeStrictJson refuses input over the byte limit, counting UTF-8 bytes", () => {
  rejects('"' + "x".repeat(100) + '"', "message_too_large", { maxBytes: 50 });
  // 20 three-byte characters are 60 bytes though only 22 UTF-16 units
  rejects('"' + "你".repeat(20) + '"', "message_too_large", { maxBytes: 50 });
  assert.equal(decodeStrictJson('"' + "你".repeat(10) + '"', { maxBytes: 50 }), "你".repeat(10));
});

Deno.test("decodeStrictJson reports syntax errors as invalid_json with the cause", () => {
  rejects("{", "invalid_json");
  rejects("{'a':1}", "invalid_json");
  rejects("", "invalid_json");
});

Deno.test("each violation has its own message", () => {
  const messages = new Set<string>();
  for (const text of ["[NaN]", "[9007199254740993]", "[".repeat(70), "{"]) {
    try {
      decodeStrictJson(text);
    } catch (error) {
      messages.add((error as Error).message);
    }
  }
  assert.equal(messages.size, 4);
});

Deno.test("encodeStrictJson refuses what a strict peer would refuse", () => {
  assert.equal(encodeStrictJson({ a: 1, b: undefined }), '{"a":1}');
  assert.throws(() => encodeStrictJson({ a: NaN }), /not finite/);
  assert.throws(() => encodeStrictJson({ a: [2 ** 60] }), /\$\.a\[0\]/);
  assert.throws(() => encodeStrictJson({ a: 1n }), StrictJsonError);
  assert.throws(() => encodeStrictJson({ ok: [1, 0.5, -0], b: [{ c: 1e300 }] }), /\$\.b\[0\]\.c/);
  assert.throws(() => encodeStrictJson([{ x: [Infinity] }]), /\$\[0\]\.x\[0\] is not finite/);
  assert.equal(encodeStrictJson({ n: [0.5, -0, 2 ** 53 - 1] }), '{"n":[0.5,0,9007199254740991]}');
});

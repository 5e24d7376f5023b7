import assert from "node:assert/strict";
import { canonicalJson } from "./canonical_json.ts";
import { GovernanceError } from "./governance_error.ts";

Deno.test("canonicalJson writes each value in one way", () => {
  const table: [unknown, string][] = [
    [null, "null"],
    [true, "true"],
    [0, "0"],
    [-0, "0"],
    [1.5e300, "1.5e+300"],
    ['a"b\n', '"a\\"b\\n"'],
    [[], "[]"],
    [{}, "{}"],
    [{ b: 1, a: 2 }, '{"a":2,"b":1}'],
    [{ b: [2, { d: 1, c: 0 }], a: "x" }, '{"a":"x","b":[2,{"c":0,"d":1}]}'],
    [{ a: undefined, b: 1 }, '{"b":1}'],
    [[1, undefined], "[1,null]"],
    // Sorted by UTF-16 code unit, like a byte sort of ASCII: upper case before lower.
    [{ b: 0, B: 0, a: 0, "é": 0, "10": 0, "9": 0 }, '{"10":0,"9":0,"B":0,"a":0,"b":0,"é":0}'],
    [Object.assign(Object.create(null), { z: 1, y: 2 }), '{"y":2,"z":1}'],
  ];
  for (const [value, expected] of table) {
    assert.equal(canonicalJson(value), expected, `canonicalJson(${String(expected)})`);
  }
});

Deno.test("canonicalJson: key order does not matter, values do", () => {
  const a = { path: "a.ts", range: { start: 1, end: 9 }, flags: ["x", "y"] };
  const b = { flags: ["x", "y"], range: { end: 9, start: 1 }, path: "a.ts" };
  assert.equal(canonicalJson(a), canonicalJson(b));
  assert.notEqual(canonicalJson({ flags: ["y", "x"] }), canonicalJson({ flags: ["x", "y"] }));
  assert.notEqual(canonicalJson({ n: 1 }), canonicalJson({ n: "1" }));
  const shared = { k: 1 };
  assert.equal(canonicalJson([shared, shared]), '[{"k":1},{"k":1}]', "a repeat is not a cycle");
});

Deno.test("canonicalJson refuses what JSON cannot carry with arguments_not_json", () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  let deep: unknown = 0;
  for (let level = 0; level < 300; level++) deep = [deep];
  const table: [unknown, RegExp][] = [
    [Number.NaN, /the number NaN/],
    [{ x: Number.POSITIVE_INFINITY }, /Infinity/],
    [10n, /type bigint/],
    [undefined, /type undefined/],
    [{ f: () => 0 }, /type function/],
    [[Symbol("s")], /type symbol/],
    [cycle, /contains itself/],
    [{ when: new Date(0) }, /a Date object/],
    [new Map(), /a Map object/],
    [deep, /deeper than 256/],
  ];
  for (const [value, message] of table) {
    assert.throws(
      () => canonicalJson(value),
      (error: unknown) =>
        error instanceof GovernanceError && error.code === "arguments_not_json" &&
        message.test(error.message),
      `expected ${message}`,
    );
  }
});

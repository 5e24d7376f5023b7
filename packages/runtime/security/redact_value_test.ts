import assert from "node:assert/strict";
import { redactValue } from "./redact_value.ts";

const redact = (text: string) => text.replaceAll("SECRET", "[redacted]");

Deno.test("strings and keys are redacted at any depth; clean values keep their identity", () => {
  const clean = { a: ["x", { b: 1 }], c: null };
  assert.equal(redactValue(clean, redact), clean);
  const dirty = { list: ["ok", { SECRET: "a SECRET b" }], n: 3, flag: true };
  assert.deepEqual(redactValue(dirty, redact), {
    list: ["ok", { "[redacted]": "a [redacted] b" }],
    n: 3,
    flag: true,
  });
  assert.deepEqual(dirty.list[1], { SECRET: "a SECRET b" }, "the input is not changed");
});

Deno.test("cycles are cut and class instances are left alone", () => {
  const cyclic: Record<string, unknown> = { text: "SECRET" };
  cyclic.self = cyclic;
  const copy = redactValue(cyclic, redact) as Record<string, unknown>;
  assert.equal(copy.text, "[redacted]");
  assert.equal(copy.self, "[circular]", "the back reference would hold the original");
  const date = new Date(0);
  assert.equal(redactValue({ date }, redact).date, date);
});

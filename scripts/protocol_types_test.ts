import assert from "node:assert/strict";
import { describeTypesDifference, printType, renderTypes, TYPES_PATH } from "./protocol_types.ts";

const checkedIn = new URL(`../${TYPES_PATH}`, import.meta.url);

Deno.test("the checked-in types.gen.ts is what the schemas generate", async () => {
  const current = await Deno.readTextFile(checkedIn);
  const generated = renderTypes();
  assert.equal(describeTypesDifference(generated, current), null);
});

Deno.test("every public schema gets a documented type and a typed export of its name", () => {
  const text = renderTypes();
  assert.match(text, /\/\*\* A thread summary[^\n]*\*\/\nexport type Thread = \{\n/);
  assert.match(text, /\nexport const Thread: Schema<Thread> = schemas\.Thread;\n/);
  assert.match(text, /\n {2}id: ThreadId;\n/);
  assert.match(text, /\nexport type RunReasonCode =\n {2}\| "cancelled"\n/);
  assert.match(text, /\n {2}"thread\.archive": \{\n {4}threadId: ThreadId;\n {2}\};\n/);
  assert.match(text, /payload: EventPayloadMap\["run\.settled"\];/);
});

Deno.test("JSON Schema prints as the TypeScript type zod infers", () => {
  const print = (schema: Record<string, unknown>) => printType(schema, "", 0, 0);
  assert.equal(print({ type: "integer" }), "number");
  assert.equal(print({ anyOf: [{ type: "string" }, { type: "null" }] }), "string | null");
  assert.equal(print({ type: ["string", "null"] }), "string | null");
  assert.equal(print({ type: "string", enum: ["a", "b"] }), '"a" | "b"');
  assert.equal(print({ type: "number", const: 1 }), "1");
  assert.equal(print({}), "unknown");
  assert.equal(print({ type: "array", items: { enum: ["a", "b"] } }), '("a" | "b")[]');
  assert.equal(print({ $ref: "event:run.settled" }), 'EventPayloadMap["run.settled"]');
  assert.equal(print({ type: "object", additionalProperties: false }), "Record<string, never>");
  assert.equal(
    print({ type: "object", propertyNames: { type: "string" }, additionalProperties: {} }),
    "{ [key: string]: unknown }",
  );
  assert.equal(
    print({
      type: "object",
      properties: { id: { $ref: "ThreadId" }, "a.b": { type: "boolean" } },
      required: ["id"],
      additionalProperties: {},
    }),
    '{\n  id: ThreadId;\n  "a.b"?: boolean;\n  [key: string]: unknown;\n}',
  );
  assert.throws(() => print({ type: "string", not: {} }), /cannot print/);
  assert.throws(() => print({ allOf: [{ type: "string" }] }), /cannot print/);
});

Deno.test("a stale types.gen.ts is reported with the line and the declaration", () => {
  const fresh = renderTypes();
  // Thread's title, not the first `title` of the file (other types have one too).
  const thread = fresh.indexOf("export type Thread = {");
  assert.ok(thread >= 0, "types.gen.ts declares Thread");
  const stale = fresh.slice(0, thread) +
    fresh.slice(thread).replace("  title: string | null;\n", "  title: string;\n");
  assert.notEqual(stale, fresh);
  assert.match(
    describeTypesDifference(fresh, stale) ?? "",
    /^line \d+, in Thread: expected "title: string \| null;", found "title: string;"$/,
  );
  assert.match(
    describeTypesDifference(fresh + "x\n", fresh) ?? "",
    /expected "x", found end of file$/,
  );
  assert.equal(describeTypesDifference(fresh, fresh), null);
});

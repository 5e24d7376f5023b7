import assert from "node:assert/strict";
import { z } from "zod";
import { modelParameterSchema } from "./model_schema.ts";

Deno.test("the model reads the schema's shape and real bounds, without zod's boilerplate", () => {
  const params = z.strictObject({
    processId: z.string().regex(/^process_[0-9a-f]{32}$/),
    cursor: z.int().min(0).optional(),
    cols: z.int().min(1).max(1000),
    title: z.string().min(1).max(200),
    tags: z.array(z.enum(["a", "b"])).max(3).optional(),
  });
  assert.deepEqual(modelParameterSchema(params), {
    type: "object",
    properties: {
      processId: { type: "string" },
      cursor: { type: "integer", minimum: 0 },
      cols: { type: "integer", minimum: 1, maximum: 1000 },
      title: { type: "string" },
      tags: { type: "array", maxItems: 3, items: { type: "string", enum: ["a", "b"] } },
    },
    required: ["processId", "cols", "title"],
  });
  // What the model is no longer shown is still enforced when a call is validated.
  const call = { processId: `process_${"0".repeat(32)}`, cols: 80, title: "t" };
  assert.equal(params.safeParse({ ...call, extra: true }).success, false, "unknown key refused");
  assert.equal(params.safeParse({ ...call, cursor: 2 ** 60 }).success, false, "unsafe integer");
  assert.equal(params.safeParse({ ...call, processId: "p1" }).success, false, "pattern");
  assert.equal(params.safeParse({ ...call, title: "" }).success, false, "minLength");
  assert.equal(params.safeParse({ ...call, title: "x".repeat(201) }).success, false, "maxLength");
});

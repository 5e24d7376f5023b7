import assert from "node:assert/strict";
import { z } from "zod";
import { modelParameterSchema } from "./model_schema.ts";

Deno.test("the model reads the schema's shape and real bounds, without zod's boilerplate", () => {
  const params = z.strictObject({
    processId: z.string().regex(/^process_[0-9a-f]{32}$/),
    cursor: z.int().min(0).optional(),
    cols: z.int().min(1).max(1000),
  });
  assert.deepEqual(modelParameterSchema(params), {
    type: "object",
    properties: {
      processId: { type: "string", pattern: "^process_[0-9a-f]{32}$" },
      cursor: { type: "integer", minimum: 0 },
      cols: { type: "integer", minimum: 1, maximum: 1000 },
    },
    required: ["processId", "cols"],
  });
  // What the model is no longer shown is still enforced when a call is validated.
  const call = { processId: `process_${"0".repeat(32)}`, cols: 80 };
  assert.equal(params.safeParse({ ...call, extra: true }).success, false, "unknown key refused");
  assert.equal(params.safeParse({ ...call, cursor: 2 ** 60 }).success, false, "unsafe integer");
});

/**
 * A tool's zod parameter schema as the JSON Schema the model reads. Every request
 * carries every tool's schema, so it holds only what the model acts on: no `$schema`
 * URL, no bounds of ±2⁵³−1 that zod adds to every integer, and no
 * `additionalProperties: false` (a model sends the properties it is shown; the zod schema
 * still refuses any other, with an error naming it).
 *
 * @module
 */
import { z } from "zod";

/**
 * The JSON Schema of a tool's parameters (input side: optional means may be left out).
 *
 * @param params the zod schema the tool validates its arguments with
 * @returns the JSON Schema offered to the model
 */
export function modelParameterSchema(params: z.ZodType): Record<string, unknown> {
  const { $schema: _url, ...schema } = z.toJSONSchema(params, {
    io: "input",
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  });
  return schema;
}

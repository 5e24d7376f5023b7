/**
 * A tool as the model is offered it: name, description, and its parameters' JSON Schema.
 * Every request carries every tool's schema, so it holds only what the model acts on: no
 * `$schema` URL, no bounds of ±2⁵³−1 that zod adds to every integer, and no
 * `additionalProperties: false` (a model sends the properties it is shown; the zod schema
 * still refuses any other, with an error naming it), and no string `pattern`, `minLength`
 * or `maxLength`: ids are copied from earlier results, not composed, and a bound of 100,000
 * characters guides no model. The zod schema still enforces all of them, and its error
 * names the field and the rule, so a call that breaks one is answered with what to fix.
 * What a model does choose by — enums, numeric ranges, array sizes — stays.
 *
 * @module
 */
import type { ToolDefinition, ToolParams } from "@daedalus/tools";

/** A tool's model-facing definition (and whether it mutates, for the run config). */
export interface ModelTool {
  /** The tool id. */
  name: string;
  /** Its description. */
  description: string;
  /** JSON Schema of its parameters. */
  parameters: Record<string, unknown>;
  /** Whether it changes anything. */
  mutating: boolean;
}

/**
 * The JSON Schema of a tool's parameters (input side: optional means may be left out).
 *
 * @param params the schema the tool validates its arguments with
 * @returns the JSON Schema offered to the model
 */
export function modelParameterSchema(params: ToolParams<unknown>): Record<string, unknown> {
  const { $schema: _url, ...schema } = params.toJSONSchema({
    io: "input",
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
      if (jsonSchema.type === "string") {
        delete jsonSchema.pattern;
        delete jsonSchema.minLength;
        delete jsonSchema.maxLength;
      }
    },
  });
  return schema;
}

const modelTools = new WeakMap<ToolDefinition<unknown>, ModelTool>();

/**
 * A tool's model-facing definition, computed once per tool definition.
 *
 * @param tool the tool
 * @returns name, description, parameter schema, mutating
 */
export function modelTool(tool: ToolDefinition<unknown>): ModelTool {
  let offered = modelTools.get(tool);
  if (!offered) {
    offered = {
      name: tool.id,
      description: tool.description,
      parameters: modelParameterSchema(tool.params),
      mutating: tool.mutating,
    };
    modelTools.set(tool, offered);
  }
  return offered;
}

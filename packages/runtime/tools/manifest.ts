/**
 * The model-facing definition of every built-in tool (name, description, parameter
 * JSON Schema, whether it mutates), for the generated protocol manifest.
 *
 * @module
 */
import { BUILTIN_TOOLS } from "@daedalus/tools";
import { type ModelTool, modelTool } from "./model_schema.ts";

/** One tool as the model sees it. */
export type ToolManifestEntry = ModelTool;

/**
 * Every built-in tool's definition, sorted by name.
 *
 * @returns the definitions
 */
export function builtinToolManifest(): ToolManifestEntry[] {
  return BUILTIN_TOOLS.map(modelTool).sort((a, b) => a.name.localeCompare(b.name));
}

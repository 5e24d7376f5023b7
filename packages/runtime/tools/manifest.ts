/**
 * The model-facing definition of every built-in tool (name, description, parameter
 * JSON Schema, whether it mutates), for the generated protocol manifest.
 *
 * @module
 */
import { createFileTools } from "./builtin_tools.ts";
import { createProcessTools } from "../processes/process_tools.ts";
import { createReadTools } from "../session_tools/read_tools.ts";
import { createManageTools } from "../session_tools/manage_tools.ts";
import { createDelegateTools } from "../session_tools/delegate_tools.ts";
import type { SessionToolDeps } from "../session_tools/_session.ts";
import type { BuiltinToolDeps } from "./builtin_tools.ts";
import type { ProcessToolDeps } from "../processes/process_tools.ts";
import { createMemoryTool, type MemoryToolDeps } from "../memory/memory_tool.ts";

/** One tool as the model sees it. */
export interface ToolManifestEntry {
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
 * Every built-in tool's definition, sorted by name. Building a tool only computes its
 * schema; nothing here touches a store or a process.
 *
 * @returns the definitions
 */
export function builtinToolManifest(): ToolManifestEntry[] {
  const inert = {} as SessionToolDeps & BuiltinToolDeps & ProcessToolDeps & MemoryToolDeps;
  return [
    ...createFileTools(inert),
    ...createProcessTools(inert),
    ...createReadTools(inert),
    ...createManageTools(inert),
    ...createDelegateTools(inert),
    createMemoryTool(inert),
  ].map(({ name, description, parameters, mutating }) => ({
    name,
    description,
    parameters,
    mutating,
  }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

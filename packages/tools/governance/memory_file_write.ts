/**
 * The write a `memory` call makes to the user's MEMORY.md (`file_append`), for the gate:
 * memory runs in every mode, but an append changes a file, so the gate also judges it as
 * a `write` of that file — the rules a `write` of the same path meets (the preset's, then
 * config.yaml's and the thread's) — and the stricter verdict stands. A read-only Run may
 * not append; an append outside the workspace is refused or asked about as a write would be.
 *
 * @module
 */
import type { ToolContext, ToolDefinition } from "../tool.ts";
import { findRunMemoryFile } from "../memory/memory_file_actions.ts";

/**
 * The `write` arguments a call amounts to, when it is a MEMORY.md append: the file the
 * append goes to. Null for any other call, and for an append the tool refuses anyway (no
 * `memoryFile` capability, or no usable place).
 *
 * @param tool the tool
 * @param args the validated arguments
 * @param context the call's memory file places and protected files
 * @returns `{ args: { path } }`, or null
 */
export async function memoryFileWrite(
  tool: Pick<ToolDefinition<unknown>, "id">,
  args: unknown,
  context: Partial<Pick<ToolContext, "memoryFile" | "protectedFiles">>,
): Promise<{ args: { path: string } } | null> {
  if (tool.id !== "memory" || (args as { action?: unknown }).action !== "file_append") return null;
  // No signal: the gate never throws, and a cancelled call is stopped by the wrapper.
  const found = await findRunMemoryFile({
    memoryFile: context.memoryFile,
    protectedFiles: context.protectedFiles ?? [],
  });
  const place = found?.appendTo ?? null;
  return place === null ? null : { args: { path: place.path } };
}

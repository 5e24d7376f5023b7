/**
 * The `write` tool: replaces or creates a whole file atomically and records a file change
 * fact (before/after captures and a unified diff).
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolParams } from "../tool.ts";
import { applyFileChange } from "./apply_change.ts";
import { resolveInWorkspace } from "./paths.ts";
import description from "./write.md" with { type: "text" };

/** Parameters of {@linkcode writeTool}. */
export interface WriteParams {
  /** The file, relative to the workspace or absolute. */
  path: string;
  /** Its whole new content. */
  content: string;
}

/** The schema of {@linkcode WriteParams}, validated before the tool runs. */
export const WriteParams: ToolParams<WriteParams> = z.strictObject({
  path: z.string(),
  content: z.string(),
});

/** Writes a whole file. */
export const writeTool: ToolDefinition<WriteParams> = defineTool({
  id: "write",
  description,
  params: WriteParams,
  mutating: true,
  risk: "write",
  async run(params, context) {
    const target = await resolveInWorkspace(params.path, context);
    const bytes = new TextEncoder().encode(params.content);
    const fact = await applyFileChange(context, target, "write", () => bytes);
    const { after } = fact;
    const created = !fact.before.exists;
    return {
      content:
        `${created ? "Created" : "Wrote"} ${target.displayPath}: ${after.lineCount} lines, ` +
        `${bytes.length} bytes (+${fact.additions} −${fact.deletions}); revision ${after.revision}`,
      details: {
        path: target.displayPath,
        created,
        bytes: bytes.length,
        additions: fact.additions,
        deletions: fact.deletions,
        revision: after.revision,
      },
    };
  },
});

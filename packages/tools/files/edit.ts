/**
 * The `edit` tool: exact-text replacement (unique by default), with stale-content detection
 * against the revision the model last read. Records the same file change fact as write.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, ToolError, type ToolParams } from "../tool.ts";
import { applyFileChange } from "./apply_change.ts";
import { revisionOf } from "./atomic_write.ts";
import { decodeText } from "./capture.ts";
import { hasBinaryExtension, resolveInWorkspace } from "./paths.ts";
import description from "./edit.md" with { type: "text" };

/** Parameters of {@linkcode editTool}. */
export interface EditParams {
  /** The file, relative to the workspace or absolute. */
  path: string;
  /** The exact text to replace (not empty). */
  oldString: string;
  /** Its replacement (must differ). */
  newString: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll?: boolean;
  /** The `sha256:` revision last read; a different file is `stale_content`. */
  expectedRevision?: string;
}

/** The schema of {@linkcode EditParams}, validated before the tool runs. */
export const EditParams: ToolParams<EditParams> = z.strictObject({
  path: z.string(),
  oldString: z.string().min(1),
  newString: z.string(),
  replaceAll: z.boolean().optional(),
  expectedRevision: z.string().regex(/^sha256:[0-9a-f]{64}$/).optional(),
});

/** Counts non-overlapping occurrences. */
function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) {
    count++;
  }
  return count;
}

/** Replaces exact text in a file. */
export const editTool: ToolDefinition<EditParams> = defineTool({
  id: "edit",
  description,
  params: EditParams,
  mutating: true,
  risk: "write",
  async run(params, context) {
    if (params.oldString === params.newString) {
      throw new ToolError("invalid_arguments", "newString: must differ from oldString");
    }
    const target = await resolveInWorkspace(params.path, context);
    const shown = target.displayPath;
    let replaced = 0;
    const fact = await applyFileChange(context, target, "edit", async (bytes) => {
      if (bytes === null) throw new ToolError("file_not_found", `${shown} does not exist`);
      const text = hasBinaryExtension(target.realPath) ? null : decodeText(bytes);
      if (text === null) throw new ToolError("binary_file", `${shown} is a binary file`);
      if (params.expectedRevision !== undefined) {
        const current = await revisionOf(bytes);
        if (current !== params.expectedRevision) {
          throw new ToolError(
            "stale_content",
            `${shown} changed since you read it (now ${current}, expected ${params.expectedRevision}); read it again before editing`,
          );
        }
      }
      let { oldString, newString } = params;
      let count = countOccurrences(text, oldString);
      if (count === 0 && text.includes("\r\n") && oldString.includes("\n")) {
        // The model usually writes LF; match a CRLF file in its own line endings.
        oldString = oldString.replace(/\r?\n/g, "\r\n");
        newString = newString.replace(/\r?\n/g, "\r\n");
        count = countOccurrences(text, oldString);
      }
      if (count === 0) throw new ToolError("not_found", `oldString was not found in ${shown}`);
      if (count > 1 && params.replaceAll !== true) {
        throw new ToolError(
          "ambiguous_match",
          `oldString occurs ${count} times in ${shown}; add surrounding lines to make it unique, or set replaceAll`,
        );
      }
      replaced = count;
      const updated = params.replaceAll === true
        ? text.replaceAll(oldString, () => newString)
        : text.replace(oldString, () => newString);
      return new TextEncoder().encode(updated);
    });
    return {
      content: `Edited ${shown}: ${replaced} replacement${replaced === 1 ? "" : "s"} ` +
        `(+${fact.additions} −${fact.deletions}); revision ${fact.after.revision}`,
      details: {
        path: shown,
        replacements: replaced,
        additions: fact.additions,
        deletions: fact.deletions,
        revision: fact.after.revision,
      },
    };
  },
});

/**
 * The one wrapper every tool call goes through: argument validation, the policy gate,
 * cancellation, error mapping, credential interception, large-result artifacts and timing. Tools stay plain
 * `run` functions; nothing here is tool-specific.
 *
 * @module
 */
import { join } from "node:path";
import {
  type ToolContext,
  type ToolDefinition,
  ToolError,
  type ToolParamsIssue,
  type ToolResult,
} from "./tool.ts";
import { admitCall } from "./gate.ts";
import {
  ARTIFACT_PREVIEW_MAX_BYTES,
  ARTIFACT_PREVIEW_MAX_LINES,
  ARTIFACT_THRESHOLD_BYTES,
} from "./limits.ts";
import { writeFileAtomic } from "./files/atomic_write.ts";

/** A path segment safe to use as a folder or file name under the artifacts root. */
const SAFE_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;

/**
 * Runs one tool call: validates `rawArgs` with the tool's schema, runs it, and turns every
 * outcome into a {@linkcode ToolResult} the model can read. Never throws.
 *
 * - invalid arguments → `invalid_arguments`, naming each bad field (checked first);
 * - then the policy gate (`gate.ts`): a permission rule's deny → `permission_denied`, its
 *   `ask` → `approval_required`; with a Run gate also a high-risk command →
 *   `high_risk_command`, a repeated call → `repeated_call` (or `loop_detected`: the Run
 *   must stop), an open breaker → `circuit_open`; a refused call does not run;
 * - signal already aborted, or the tool stopped because of it → `cancelled`;
 * - a {@linkcode ToolError} → its code and message; any other error → `tool_failed`
 *   (message only, never a stack);
 * - a result (or error) carrying a protected value → `protected_value`, nothing written;
 *   file change facts of the call that carry one keep only their metadata;
 * - content over 64 KiB → written to `<artifactsRoot>/<threadId>/<itemId>.txt`, the model
 *   gets a preview and a hint to read on; a failed artifact write keeps the full result;
 * - `details.durationMs` on every result.
 *
 * @param tool the tool
 * @param rawArgs the arguments as the model sent them
 * @param context ids, workspace, signal, credentials and fact recorders
 * @returns the result
 * @example
 * ```ts
 * const result = await executeTool(readTool, { path: "README.md" }, context);
 * if (result.isError) console.log(result.errorCode, result.content);
 * ```
 */
export async function executeTool<P>(
  tool: ToolDefinition<P>,
  rawArgs: unknown,
  context: ToolContext,
): Promise<ToolResult> {
  const started = performance.now();
  const factsBefore = context.facts.fileChanges.length;
  const result = await settle(tool, rawArgs, context);
  withholdProtectedFacts(context, factsBefore);
  const safe = context.protectedValues.find(result.content) ||
      (result.details !== undefined && context.protectedValues.find(JSON.stringify(result.details)))
    ? failure(
      "protected_value",
      `The ${tool.id} result contained a configured credential and was withheld`,
    )
    : await offloadLargeResult(result, context);
  return {
    ...safe,
    details: { ...safe.details, durationMs: Math.round(performance.now() - started) },
  };
}

async function settle<P>(
  tool: ToolDefinition<P>,
  rawArgs: unknown,
  context: ToolContext,
): Promise<ToolResult> {
  if (context.signal.aborted) return cancelled(tool.id);
  const parsed = tool.params.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    return failure(
      "invalid_arguments",
      `Invalid arguments for ${tool.id}: ${describeIssues(parsed.error)}`,
    );
  }
  const admission = await admitCall(tool, parsed.data, context);
  if (!admission.admitted) return admission.result;
  const result = await run(tool, parsed.data, context);
  admission.finish(result);
  return result;
}

async function run<P>(tool: ToolDefinition<P>, args: P, context: ToolContext): Promise<ToolResult> {
  try {
    return await tool.run(args, context);
  } catch (error) {
    if (error instanceof ToolError) {
      return error.code === "cancelled" ? cancelled(tool.id) : failure(error.code, error.message);
    }
    if (context.signal.aborted) return cancelled(tool.id);
    const reason = error instanceof Error ? error.message : String(error);
    return failure("tool_failed", `${tool.id} failed: ${reason}`);
  }
}

function describeIssues(error: { issues: readonly ToolParamsIssue[] }): string {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    const keys = "keys" in issue && Array.isArray(issue.keys) ? ` (${issue.keys.join(", ")})` : "";
    return `${field === "" ? "arguments" : field}: ${issue.message}${keys}`;
  }).join("; ");
}

function failure(errorCode: string, content: string): ToolResult {
  return { isError: true, errorCode, content };
}

function cancelled(id: string): ToolResult {
  return failure("cancelled", `The ${id} call was cancelled`);
}

/** Keeps a credential the tool wrote to disk out of the journal: metadata stays, text goes. */
function withholdProtectedFacts(context: ToolContext, from: number): void {
  const changes = context.facts.fileChanges;
  for (let index = from; index < changes.length; index++) {
    const fact = changes[index];
    if (fact === undefined || !context.protectedValues.find(JSON.stringify(fact))) continue;
    const strip = (side: unknown) => {
      if (typeof side !== "object" || side === null) return side;
      const { text: _text, ...rest } = side as Record<string, unknown>;
      return { ...rest, textOmitted: true };
    };
    changes[index] = {
      ...fact,
      before: strip(fact.before),
      after: strip(fact.after),
      diff: null,
      withheld: "protected_value",
    };
  }
}

async function offloadLargeResult(result: ToolResult, context: ToolContext): Promise<ToolResult> {
  const bytes = new TextEncoder().encode(result.content);
  if (bytes.length <= ARTIFACT_THRESHOLD_BYTES) return result;
  if (!SAFE_SEGMENT.test(context.threadId) || !SAFE_SEGMENT.test(context.itemId)) return result;
  const folder = join(context.artifactsRoot, context.threadId);
  const artifactPath = join(folder, `${context.itemId}.txt`);
  try {
    await Deno.mkdir(folder, { recursive: true });
    await writeFileAtomic(artifactPath, bytes);
  } catch {
    // The seed keeps the full result when the artifact cannot be written.
    return result;
  }
  const { text, lines } = preview(result.content);
  const totalLines = countLines(result.content);
  const hint = `[Output truncated: ${bytes.length} bytes, ${totalLines} lines; ` +
    `the full output is in ${artifactPath}. ` +
    `Use read with offset=${lines + 1} on ${artifactPath} for the rest.]`;
  return {
    ...result,
    content: `${text}\n\n${hint}`,
    details: {
      ...result.details,
      artifactPath,
      artifactBytes: bytes.length,
      artifactLines: totalLines,
      artifactPreviewLines: lines,
      truncated: true,
    },
  };
}

/** The head of a text: whole lines, at most 200 of them and 32 KiB. */
function preview(content: string): { text: string; lines: number } {
  const encoder = new TextEncoder();
  const kept: string[] = [];
  let bytes = 0;
  for (const line of content.split("\n")) {
    if (kept.length >= ARTIFACT_PREVIEW_MAX_LINES) break;
    const size = encoder.encode(line).length + 1;
    if (bytes + size > ARTIFACT_PREVIEW_MAX_BYTES) break;
    kept.push(line);
    bytes += size;
  }
  if (kept.length > 0) return { text: kept.join("\n"), lines: kept.length };
  // One first line longer than the preview: show its head; reading resumes at line 1.
  return { text: cutToBytes(content, ARTIFACT_PREVIEW_MAX_BYTES), lines: 0 };
}

function cutToBytes(text: string, maxBytes: number): string {
  const bytes = new TextEncoder().encode(text).subarray(0, maxBytes);
  return new TextDecoder().decode(bytes).replace(/\uFFFD$/, "");
}

function countLines(text: string): number {
  const breaks = text.match(/\n/g)?.length ?? 0;
  return text.endsWith("\n") ? breaks : breaks + 1;
}

/**
 * What the Run modes refuse by a tool's risk class, as the text the model reads. The
 * decision itself is the permission rules' (`gate.ts`: the mode's preset, then config.yaml's
 * rules); this is the wording a preset's deny keeps, so a refusal reads as it did before
 * rules existed. Which paths a file tool may touch is also the tool's own access rules'
 * business (`files/access.ts`), and the runtime's permission-narrowed Worker is the second
 * wall for the file tools.
 *
 * @module
 */
import type { ExecutionPolicy } from "@daedalus/protocol";
import type { ToolDefinition } from "./tool.ts";

/** The modes whose file tools are sealed inside the workspace (and, in the runtime, a Worker). */
export type SealedPolicy = "read_only" | "workspace_write";

/**
 * Whether a mode seals the file tools inside the workspace: `read_only` and
 * `workspace_write` can never reach outside it, so their tools' access rules (and the
 * runtime's narrowed Worker) enforce that. `ask` and `full_access` run unsealed: under `ask`
 * the gate asks the user for a path outside, and an allowed call must be able to run.
 *
 * @param policy the Run's execution policy
 * @returns true for the sealed modes
 */
export function isSealedPolicy(policy: ExecutionPolicy): policy is SealedPolicy {
  return policy === "read_only" || policy === "workspace_write";
}

/**
 * Why the Run's mode refuses this tool, as the text the model reads, or null when it may
 * run: `read_only` refuses writes; `read_only` and `workspace_write` refuse commands (a
 * spawned command escapes Deno's permission checks) and session changes; reads and memory
 * run in every mode.
 *
 * @param tool the tool
 * @param policy the Run's execution policy
 * @returns the refusal (code `permission_denied`), or null
 * @example
 * ```ts
 * permissionRefusal(writeTool, "read_only"); // "permission_denied: write writes, and this run is read_only"
 * ```
 */
export function permissionRefusal(
  tool: Pick<ToolDefinition<unknown>, "id" | "risk">,
  policy: ExecutionPolicy,
): string | null {
  // `ask` refuses nothing by risk: its rules ask instead.
  if (!isSealedPolicy(policy)) return null;
  switch (tool.risk) {
    case "process":
      return `permission_denied: process tools need full_access; this run is ${policy}`;
    case "session":
      return `permission_denied: ${tool.id} changes sessions and needs full_access; this run is ${policy}`;
    case "write":
      return policy === "read_only"
        ? `permission_denied: ${tool.id} writes, and this run is read_only`
        : null;
    default:
      return null;
  }
}

/**
 * The memory scope key of a workspace, derived by the runtime (never by the model):
 * the same folder gives the same key, whichever thread works in it.
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * The scope key of a workspace folder.
 *
 * @param rootUri the workspace's absolute path, or null
 * @returns `ws:<32 hex>`, or null when the thread has no workspace
 */
export function workspaceMemoryKey(rootUri: string | null | undefined): string | null {
  if (!rootUri) return null;
  return "ws:" + createHash("sha256").update(rootUri).digest("hex").slice(0, 32);
}

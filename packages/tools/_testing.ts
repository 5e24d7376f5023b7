/**
 * Test helpers (not exported): a real temp workspace and a {@linkcode ToolContext} over it.
 *
 * @module
 */
import { join } from "node:path";
import type { ToolContext } from "./tool.ts";

/** A temp workspace, its artifacts folder and a context over both. */
export interface TestWorkspace extends AsyncDisposable {
  /** The context tools get. */
  context: ToolContext;
  /** The workspace root (real path). */
  root: string;
  /** The temp folder holding the workspace, the artifacts and any outside files. */
  base: string;
  /** Writes a file below the workspace, creating parents. */
  write(relativePath: string, content: string | Uint8Array): Promise<string>;
}

/** Options of {@linkcode createTestWorkspace}. */
export interface TestWorkspaceOptions {
  /** Credentials the context protects. */
  protectedValues?: string[];
  /** A signal for the context. */
  signal?: AbortSignal;
  /** Ids for the context. */
  threadId?: string;
  /** The tool_call item id. */
  itemId?: string;
  /** The permission mode (default full_access). */
  executionPolicy?: ToolContext["executionPolicy"];
  /** Protected files (absolute). */
  protectedFiles?: string[];
}

/**
 * Creates a temp workspace and a context over it; dispose it to delete everything.
 *
 * @param options credentials, signal, ids
 * @returns the workspace
 */
export async function createTestWorkspace(
  options: TestWorkspaceOptions = {},
): Promise<TestWorkspace> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "daedalus-tools-" }));
  const root = join(base, "workspace");
  await Deno.mkdir(root);
  const secrets = options.protectedValues ?? [];
  const context: ToolContext = {
    threadId: options.threadId ?? "thread-1",
    runId: "run-1",
    itemId: options.itemId ?? "item-1",
    workspaceRoot: root,
    artifactsRoot: join(base, "artifacts"),
    executionPolicy: options.executionPolicy ?? "full_access",
    protectedFiles: options.protectedFiles ?? [],
    signal: options.signal ?? new AbortController().signal,
    protectedValues: {
      find: (text) => secrets.some((secret) => text.includes(secret)),
      redact: (text) => secrets.reduce((out, secret) => out.replaceAll(secret, "[redacted]"), text),
    },
    facts: { fileChanges: [], processes: [] },
  };
  return {
    context,
    root,
    base,
    async write(relativePath, content) {
      const path = join(root, relativePath);
      await Deno.mkdir(join(path, ".."), { recursive: true });
      if (typeof content === "string") await Deno.writeTextFile(path, content);
      else await Deno.writeFile(path, content);
      return path;
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true });
    },
  };
}

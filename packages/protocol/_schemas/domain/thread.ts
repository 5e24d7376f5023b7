/**
 * Threads, their branches and workspaces as the wire shows them.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { BranchId, ThreadId, Timestamp, WorkspaceId } from "../ids.ts";
import { PATH_MAX_CHARS, THREAD_TITLE_MAX_CHARS } from "../../limits.ts";

export const ThreadTitle = z.string().trim().min(1).max(THREAD_TITLE_MAX_CHARS).regex(
  /^[^\r\n]*$/,
  {
    error: "a title is one line",
  },
).register(docs, { description: "A thread title: one line, 1–200 characters." });

export const Workspace = z.looseObject({
  id: WorkspaceId,
  name: z.string(),
  kind: z.enum(["project", "managed"]),
  /** Absolute path of the folder; null when it is not available. */
  rootUri: z.string().max(PATH_MAX_CHARS).nullable(),
}).register(docs, {
  description:
    "Where a thread's files live: a managed folder the runtime made, or a project folder.",
});

export const Thread = z.looseObject({
  id: ThreadId,
  title: z.string().nullable(),
  defaultBranchId: BranchId,
  workspace: Workspace.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  archivedAt: Timestamp.nullable(),
}).register(docs, { description: "A thread summary (seed 000 §6.16 ThreadSummary)." });

export const Branch = z.looseObject({
  id: BranchId,
  threadId: ThreadId,
  createdAt: Timestamp,
  isDefault: z.boolean(),
}).register(docs, {
  description: "A branch of a thread; every thread has exactly one default branch.",
});

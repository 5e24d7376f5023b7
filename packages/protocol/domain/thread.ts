/**
 * Threads, their branches and workspaces as the wire shows them.
 *
 * @module
 */
import { z } from "zod";
import { BranchId, ThreadId, Timestamp, WorkspaceId } from "../ids.ts";
import { PATH_MAX_CHARS, THREAD_TITLE_MAX_CHARS } from "../limits.ts";

/** A thread title: one line, 1–200 characters. */
export const ThreadTitle = z.string().trim().min(1).max(THREAD_TITLE_MAX_CHARS).regex(
  /^[^\r\n]*$/,
  {
    error: "a title is one line",
  },
);

/** Where a thread's files live: a managed folder the runtime made, or a project folder. */
export const Workspace = z.looseObject({
  id: WorkspaceId,
  name: z.string(),
  kind: z.enum(["project", "managed"]),
  /** Absolute path of the folder; null when it is not available. */
  rootUri: z.string().max(PATH_MAX_CHARS).nullable(),
});
/** A workspace. */
export type Workspace = z.infer<typeof Workspace>;

/** A thread summary (seed 000 §6.16 ThreadSummary). */
export const Thread = z.looseObject({
  id: ThreadId,
  title: z.string().nullable(),
  defaultBranchId: BranchId,
  workspace: Workspace.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  archivedAt: Timestamp.nullable(),
});
/** A thread summary. */
export type Thread = z.infer<typeof Thread>;

/** A branch of a thread; every thread has exactly one default branch. */
export const Branch = z.looseObject({
  id: BranchId,
  threadId: ThreadId,
  createdAt: Timestamp,
  isDefault: z.boolean(),
});
/** A branch. */
export type Branch = z.infer<typeof Branch>;

/**
 * Threads, their branches and workspaces as the wire shows them.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { BranchId, ThreadId, Timestamp, TurnId, WorkspaceId } from "../ids.ts";
import { PATH_MAX_CHARS, THREAD_TITLE_MAX_CHARS } from "../../limits.ts";
import { ThreadSource } from "./thread_source.ts";

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
  /**
   * The branch the thread shows and a `turn.start` without a branch continues. Optional so
   * events written before branches could fork still parse (there it is the default branch).
   */
  activeBranchId: BranchId.optional(),
  /**
   * Who started the thread when it was not the owner (a gateway app key); null for the
   * owner's own threads. Optional so events written before sources existed still parse.
   */
  source: ThreadSource.nullable().optional(),
  /**
   * The agent profile the thread is bound to (its settings' `agentId`); null: none bound
   * (threads made before profiles), so its Runs use the default profile.
   */
  agentId: z.string().nullable().optional(),
}).register(docs, { description: "A thread summary (seed 000 §6.16 ThreadSummary)." });

export const Branch = z.looseObject({
  id: BranchId,
  threadId: ThreadId,
  createdAt: Timestamp,
  isDefault: z.boolean(),
  /** The branch it was forked from; null (or absent, in older events) for the default branch. */
  parentBranchId: BranchId.nullable().optional(),
  /**
   * The last turn it shares with its parent's history; null for the default branch and for
   * a branch that shares nothing (an edit of the very first message).
   */
  forkTurnId: TurnId.nullable().optional(),
}).register(docs, {
  description: "A branch of a thread; every thread has exactly one default branch, and " +
    "`branch.create` forks more at a turn.",
});

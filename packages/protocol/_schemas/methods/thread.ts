/**
 * `thread.*`: create, rename, archive, unarchive, delete, get, list, its own settings, compact.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { BranchId, Cursor, Identifier, ThreadId, Timestamp } from "../ids.ts";
import { PAGE_MAX_LIMIT, PATH_MAX_CHARS } from "../../limits.ts";
import { Branch, Thread, ThreadTitle } from "../domain/thread.ts";
import { ThreadSource } from "../domain/thread_source.ts";
import { EventEnvelope } from "../events.ts";
import { AgentId } from "../domain/agent.ts";
import {
  CompactionOverride,
  ContextUse,
  ThreadCompaction,
  ThreadSettings,
} from "../domain/compaction.ts";

const threadChange = z.looseObject({
  thread: Thread,
  /** False when the thread already had that state (no event was written). */
  changed: z.boolean(),
  event: EventEnvelope.nullable(),
});

/** Methods of the `thread` namespace. */
export const threadMethods = {
  "thread.create": method({
    description: "Creates a thread with its default branch; without a workspace a managed " +
      "folder is made. Idempotent on clientRequestId",
    params: z.strictObject({
      title: ThreadTitle.nullable().optional(),
      clientRequestId: Identifier.optional(),
      /** A project folder (absolute path) instead of a managed workspace. */
      workspace: z.strictObject({
        rootUri: z.string().min(1).max(PATH_MAX_CHARS),
        name: z.string().min(1).max(200).optional(),
      }).optional(),
      /**
       * Who the thread is made for. Only the runtime's own gateway sets it; from any other
       * client it is refused with `thread_source_reserved`.
       */
      source: ThreadSource.optional(),
      /** The agent profile to bind (default: config.yaml's default profile, else `build`). */
      agentId: AgentId.optional(),
    }),
    result: z.looseObject({ thread: Thread, event: EventEnvelope }),
  }),
  "thread.set_agent": method({
    description: "Binds a thread to another agent profile; its next Run uses it (a Run " +
      "already submitted keeps the profile it was frozen with). An unknown profile is " +
      "refused (`agent_not_found`)",
    params: z.strictObject({ threadId: ThreadId, agentId: AgentId }),
    result: z.looseObject({ thread: Thread, changed: z.boolean() }),
  }),
  "thread.rename": method({
    description: "Renames a thread; a user-given title is never replaced by an automatic one",
    params: z.strictObject({ threadId: ThreadId, title: ThreadTitle }),
    result: threadChange,
  }),
  "thread.archive": method({
    description: "Archives a thread; refused while it has a queued or running run",
    params: z.strictObject({ threadId: ThreadId }),
    result: threadChange,
  }),
  "thread.unarchive": method({
    description: "Brings an archived thread back to the active catalog",
    params: z.strictObject({ threadId: ThreadId }),
    result: threadChange,
  }),
  "thread.delete": method({
    description: "Deletes a thread (archived or not): its projections and the payloads of its " +
      "journal events are erased from state.db, a thread.deleted event records it, and the " +
      "runtime's own files of the thread (tool output artifacts, process logs, attachments " +
      "only it used) are removed. Workspace files and memories stay. Refused with " +
      "thread_busy while a Run of the thread is queued, running or waiting; idempotent on " +
      "clientRequestId",
    params: z.strictObject({ threadId: ThreadId, clientRequestId: Identifier }),
    result: z.looseObject({
      threadId: ThreadId,
      deletedAt: Timestamp,
      /** Journal events whose payload was erased. */
      erasedEvents: z.int().min(0),
    }),
  }),
  "thread.get": method({
    description: "Reads one thread with the snapshot seq it was read at, and one of its " +
      "branches (branchId; the active branch when absent)",
    params: z.strictObject({ threadId: ThreadId, branchId: BranchId.optional() }),
    result: z.looseObject({
      thread: Thread,
      /** The branch asked for, else the active one; absent from runtimes older than forks. */
      branch: Branch.optional(),
      snapshotSeq: z.int().min(0),
    }),
  }),
  "thread.list": method({
    description: "Pages the thread catalog, newest first; cursors are bound to their scope",
    params: z.strictObject({
      cursor: Cursor.nullable().optional(),
      limit: z.int().min(1).max(PAGE_MAX_LIMIT).optional(),
      archived: z.boolean().optional(),
    }),
    result: z.looseObject({
      threads: z.array(Thread),
      nextCursor: Cursor.nullable(),
      hasMore: z.boolean(),
      snapshotSeq: z.int().min(0),
    }),
  }),
  "thread.update_settings": method({
    description: "Sets or clears (null) the thread's own compaction settings over " +
      "config.yaml's; later Runs of the thread freeze the result",
    params: z.strictObject({ threadId: ThreadId, compaction: CompactionOverride.nullable() }),
    result: z.looseObject({
      threadId: ThreadId,
      settings: ThreadSettings,
      /** False when the settings already were these (no event was written). */
      changed: z.boolean(),
      event: EventEnvelope.nullable(),
    }),
  }),
  "thread.compact": method({
    description: "Summarizes the thread's active history now (one model call); later Runs " +
      "see the summary in place of the turns it covers. Refused while a Run of the thread " +
      "is active; idempotent on clientRequestId",
    params: z.strictObject({ threadId: ThreadId, clientRequestId: Identifier }),
    result: z.looseObject({
      threadId: ThreadId,
      /** False when there was nothing to compact (no turn after the last compaction). */
      compacted: z.boolean(),
      compaction: ThreadCompaction.nullable(),
      event: EventEnvelope.nullable(),
    }),
  }),
  "thread.context": method({
    description: "Reads how much of its model's context window the thread's last " +
      "execution call used (null before any)",
    params: z.strictObject({ threadId: ThreadId }),
    result: z.looseObject({ threadId: ThreadId, use: ContextUse.nullable() }),
  }),
};

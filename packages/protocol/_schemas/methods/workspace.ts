/**
 * `file.*`, `process.*` and `usage.read`: reads of what runs left behind.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { ItemId, ProcessId, ThreadId } from "../ids.ts";
import { PATH_MAX_CHARS, PROCESS_READ_MAX_BYTES } from "../../limits.ts";
import { FileChange, FilePreview } from "../domain/file.ts";
import { ProcessOutputPage } from "../domain/process.ts";
import { DailyUsageBucket, UsageSummary } from "../domain/usage.ts";

/** Methods of the `file`, `process` and `usage` namespaces. */
export const workspaceMethods = {
  "file.preview": method({
    description: "Reads a revision-bound page of a text file in a thread's workspace",
    params: z.strictObject({
      threadId: ThreadId,
      path: z.string().min(1).max(PATH_MAX_CHARS),
      offset: z.int().min(1).optional(),
      expectedRevision: z.string().min(1).max(200).optional(),
    }),
    result: FilePreview,
  }),
  "file.change.get": method({
    description: "Reads the before/after captures and diff of a recorded write or edit",
    params: z.strictObject({ threadId: ThreadId, toolCallItemId: ItemId }),
    result: FileChange,
  }),
  "process.read": method({
    description: "Reads a page of a managed process's output from a byte cursor",
    params: z.strictObject({
      threadId: ThreadId,
      processId: ProcessId,
      cursor: z.int().min(0).optional(),
      limit: z.int().min(1).max(PROCESS_READ_MAX_BYTES).optional(),
    }),
    result: ProcessOutputPage,
  }),
  "process.stop": method({
    description: "Stops a managed process and its whole process tree",
    params: z.strictObject({ threadId: ThreadId, processId: ProcessId }),
    result: ProcessOutputPage,
  }),
  "usage.read": method({
    description: "Reads usage figures aggregated from provider-reported tokens",
    params: z.strictObject({}),
    result: z.looseObject({ summary: UsageSummary, dailyUsageBuckets: z.array(DailyUsageBucket) }),
  }),
};

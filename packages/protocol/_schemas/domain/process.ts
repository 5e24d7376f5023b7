/**
 * Managed processes as the wire shows them.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { ItemId, ProcessId, RunId, ThreadId, Timestamp } from "../ids.ts";
import { ProcessState } from "../enums.ts";
import { ProcessErrorCode } from "../reason_codes.ts";

export const ProcessRecord = z.looseObject({
  processId: ProcessId,
  threadId: ThreadId,
  runId: RunId,
  itemId: ItemId,
  command: z.string(),
  cwd: z.string(),
  state: ProcessState,
  pid: z.int().min(0).nullable(),
  exitCode: z.int().nullable(),
  errorCode: ProcessErrorCode.nullable(),
  background: z.boolean(),
  pty: z.boolean(),
  startedAt: Timestamp,
  finishedAt: Timestamp.nullable(),
}).register(docs, {
  description: "The recorded facts of one managed process (`process.recorded`).",
});

export const ProcessOutputPage = z.looseObject({
  processId: ProcessId,
  state: ProcessState,
  exitCode: z.int().nullable(),
  cwd: z.string(),
  pid: z.int().min(0).nullable(),
  startedAt: Timestamp,
  finishedAt: Timestamp.nullable(),
  output: z.string(),
  truncated: z.boolean(),
  errorCode: ProcessErrorCode.nullable(),
  /** Absolute byte offset of `output` in the process's output stream. */
  cursor: z.int().min(0),
  nextCursor: z.int().min(0),
  hasMore: z.boolean(),
}).register(docs, {
  description: "A page of a process's output with its state (`process.read`, `process.stop`).",
});

/**
 * Deleting a thread from the PWA: the thread the confirmation dialog asks about, and the
 * `thread.delete` call (one clientRequestId per thread, so a retry after a dropped answer
 * is the same request). Once it is deleted the thread leaves the sidebar and, when open,
 * the address; other pages follow the `thread.deleted` event (store.ts).
 *
 * @module
 */
import { signal } from "@preact/signals";
import { closeDeletedThread, report, rpc } from "./store.ts";
import { callFailure } from "./call_failure.ts";

/** What the delete dialog asks about. */
export interface DeleteTarget {
  /** The thread. */
  threadId: string;
  /** Its title as the place that opened the dialog shows it (null: untitled). */
  title: string | null;
  /** Called once it is deleted (a list that shows it drops it). */
  onDeleted?: () => void;
}

/** The thread the delete dialog asks about; null while it is closed. */
export const deleteTarget = signal<DeleteTarget | null>(null);

/** How a deletion went: done, refused while a Run is active, or failed (reported). */
export type DeleteOutcome = "deleted" | "busy" | "failed";

const requestIds = new Map<string, string>();

/**
 * Deletes a thread (`thread.delete`).
 *
 * @param threadId the thread
 * @returns the outcome; `busy` when a Run of it is queued, running or waiting
 */
export async function deleteThread(threadId: string): Promise<DeleteOutcome> {
  const clientRequestId = requestIds.get(threadId) ?? crypto.randomUUID();
  requestIds.set(threadId, clientRequestId);
  try {
    await rpc().call("thread.delete", { threadId, clientRequestId });
    requestIds.delete(threadId);
    closeDeletedThread(threadId);
    return "deleted";
  } catch (error) {
    const { code } = callFailure(error);
    // Refused: nothing happened, so the next try is a new request.
    if (code === "thread_busy") {
      requestIds.delete(threadId);
      return "busy";
    }
    if (code === "thread_not_found") {
      // Deleted meanwhile (another page): it is gone either way.
      requestIds.delete(threadId);
      closeDeletedThread(threadId);
      return "deleted";
    }
    report(error);
    return "failed";
  }
}

/**
 * `thread.delete`: the thread's running processes are stopped, state.db erases the
 * thread (storage's `deleteThread`: projections, journal payloads, a `thread.deleted`
 * event), and the runtime's own files of the thread go after the commit, in the order
 * threads/deleted_files.ts keeps crash-safe. Workspace files and memories stay.
 *
 * @module
 */
import type { ResultOf, ValidParamsOf } from "@daedalus/protocol";
import {
  deleteThread,
  hasActiveRun,
  readThread,
  type StateStore,
  StoreError,
} from "@daedalus/storage";
import type { ProcessManager } from "@daedalus/tools";
import type { Handled } from "./services.ts";
import {
  deletionManifest,
  dropManifest,
  manifestPath,
  parseManifest,
  removeDeletedFiles,
  type ThreadFileDirs,
  writeManifestSync,
} from "../threads/deleted_files.ts";

/** What the handler needs. */
export interface DeleteHandlerDeps {
  /** The state store. */
  store: StateStore;
  /** The runtime's managed processes (the thread's running ones are stopped first). */
  processManager: Pick<ProcessManager, "records" | "stop">;
  /** Refuses configured credentials in request content (a clientRequestId is stored). */
  protectedValues: { assertSafe(value: unknown, field: string): void };
  /** The home folders the thread's files are in. */
  threadFiles: ThreadFileDirs;
}

/** The handler. */
export type DeleteHandlers = {
  "thread.delete": (
    params: ValidParamsOf<"thread.delete">,
  ) => Promise<Handled<ResultOf<"thread.delete">>>;
};

/**
 * Builds the handler.
 *
 * @param deps the store, the process manager and the home folders
 * @returns the handler
 */
export function createDeleteHandlers(deps: DeleteHandlerDeps): DeleteHandlers {
  const { store, threadFiles } = deps;
  return {
    "thread.delete": async (params) => {
      deps.protectedValues.assertSafe(params, "");
      const { threadId } = params;
      // Refused before anything is stopped: a busy thread keeps its processes.
      const live = store.read((db) => {
        try {
          readThread(db, threadId);
        } catch (error) {
          // A deleted thread: the storage call below answers a retry or refuses.
          if (error instanceof StoreError && error.code === "thread_not_found") return false;
          throw error;
        }
        if (hasActiveRun(db, threadId)) {
          throw new StoreError(
            "thread_busy",
            `Thread ${threadId} has a queued, running or waiting run; stop it before deleting`,
          );
        }
        return true;
      });
      if (live) {
        // Their logs are about to go; a process still writing would recreate the folder.
        for (const record of deps.processManager.records()) {
          if (record.threadId === threadId && record.state === "running") {
            await deps.processManager.stop(record.processId);
          }
        }
      }
      let wroteManifest = false;
      let committed;
      try {
        committed = deleteThread(store, {
          threadId,
          clientRequestId: params.clientRequestId,
          beforeCommit: (files) => {
            writeManifestSync(
              threadFiles,
              deletionManifest(threadFiles, threadId, files.attachmentPaths),
            );
            wroteManifest = true;
          },
        });
      } catch (error) {
        if (wroteManifest) await dropManifest(threadFiles, threadId);
        throw error;
      }
      const { result } = committed;
      // A retry finishes a removal an earlier call (or a crash) left behind.
      const manifest = result.deleted
        ? deletionManifest(threadFiles, threadId, result.files.attachmentPaths)
        : await readManifest(threadFiles, threadId);
      if (manifest !== null) {
        const outcome = await removeDeletedFiles(threadFiles, manifest);
        for (const failed of outcome.failed) {
          // The manifest stays: the next start removes what is left.
          console.error(
            `thread.delete ${threadId}: cannot remove ${failed.path}: ${failed.message}`,
          );
        }
      }
      return {
        result: {
          threadId: result.threadId,
          deletedAt: result.deletedAt,
          erasedEvents: result.erasedEvents,
        },
      };
    },
  };
}

async function readManifest(dirs: ThreadFileDirs, threadId: string) {
  let text: string;
  try {
    text = await Deno.readTextFile(manifestPath(dirs, threadId));
  } catch {
    return null;
  }
  const manifest = parseManifest(dirs, text, threadId);
  return typeof manifest === "string" ? null : manifest;
}

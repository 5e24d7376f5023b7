/**
 * The file panel: which file of the open thread is previewed and its pages
 * (`file.preview`). Later pages name the first page's revision, so a file that changes
 * while it is open is reported instead of showing a mix of two versions.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { conversation, report, rpc } from "./store.ts";
import { applyPage, emptyPages, type FilePagesState } from "./file_pages.ts";

/** The previewed file and its pages, or null when the panel is closed. */
export const filePanel = signal<FilePagesState | null>(null);

async function fetchPage(path: string, offset?: number, expectedRevision?: string) {
  const open = conversation.value;
  if (!open) return;
  const current = filePanel.value;
  if (!current || current.path !== path) return;
  filePanel.value = { ...current, loading: true };
  try {
    const page = await rpc().call("file.preview", {
      threadId: open.threadId,
      path,
      offset,
      expectedRevision,
    });
    // The panel may have moved on to another file (or closed) meanwhile.
    if (filePanel.value?.path === path) filePanel.value = applyPage(filePanel.value, page);
  } catch (error) {
    if (filePanel.value?.path === path) filePanel.value = { ...filePanel.value, loading: false };
    report(error);
  }
}

/**
 * Opens the panel on a file of the open thread's workspace, from its first line.
 *
 * @param path the path as a tool call named it
 */
export function openFilePreview(path: string): Promise<void> {
  filePanel.value = emptyPages(path);
  return fetchPage(path);
}

/** Loads the next page of the previewed file (same revision). */
export function loadMoreLines(): Promise<void> {
  const current = filePanel.value;
  if (!current || current.nextOffset === null || current.loading) return Promise.resolve();
  return fetchPage(current.path, current.nextOffset, current.revision ?? undefined);
}

/** Starts the previewed file again from its first line (after it changed). */
export function reloadFilePreview(): Promise<void> {
  const current = filePanel.value;
  return current ? openFilePreview(current.path) : Promise.resolve();
}

/** Closes the panel. */
export function closeFilePreview(): void {
  filePanel.value = null;
}

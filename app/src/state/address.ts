/**
 * The app's addresses: every thread has one (`#/t/<threadId>`), a branch other than its
 * first one adds itself (`#/t/<threadId>/b/<branchId>`), the start screen is `#/`.
 * A hash route, because the runtime serves the app's shell at `/` only and the service
 * worker precaches that one document: a reload, a bookmark or a link opened in a new tab
 * lands on the same shell and the hash says which thread to open.
 *
 * @module
 */

const THREAD_ADDRESS = /^#\/t\/(thread_[0-9a-f]{32})(?:\/b\/(branch_[0-9a-f]{32}))?\/?$/;

/** The start screen's address. */
export const START_ADDRESS = "#/";

/**
 * The thread an address names.
 *
 * @param hash `location.hash`
 * @returns the thread id, or null for the start screen or anything that is not a thread's
 *   address (a mistyped or foreign hash is treated as the start screen, never as an id)
 */
export function threadOfAddress(hash: string): string | null {
  return THREAD_ADDRESS.exec(hash)?.[1] ?? null;
}

/**
 * The branch an address names.
 *
 * @param hash `location.hash`
 * @returns the branch id, or null when the address names none (the thread's own choice)
 */
export function branchOfAddress(hash: string): string | null {
  return THREAD_ADDRESS.exec(hash)?.[2] ?? null;
}

/**
 * The address of a thread (at a branch), or of the start screen.
 *
 * @param threadId the thread, or null
 * @param branchId the branch shown, or null for the thread's first one
 * @returns its hash
 */
export function addressOf(threadId: string | null, branchId: string | null = null): string {
  if (threadId === null) return START_ADDRESS;
  return branchId === null ? `#/t/${threadId}` : `#/t/${threadId}/b/${branchId}`;
}

/**
 * The branch a thread's address names: the branch it shows once it has more than one
 * version of a turn (then the first branch is named too, so Back returns to it rather than
 * to "whatever the thread shows now"), or a branch other than its first one.
 *
 * @param thread the thread's summary (`activeBranchId` is absent in older events)
 * @param forked whether the shown history has a turn with other versions
 * @returns the branch for the address, or null
 */
export function addressedBranch(
  thread: { defaultBranchId: string; activeBranchId?: string } | undefined,
  forked = false,
): string | null {
  if (!thread) return null;
  const active = thread.activeBranchId ?? thread.defaultBranchId;
  return forked || active !== thread.defaultBranchId ? active : null;
}

/**
 * The document title: the open thread's title before the app's name, as a browser tab,
 * the history menu and the task switcher show it.
 *
 * @param threadTitle the open thread's title (null or blank: untitled, or none open)
 * @param appTitle the app's name
 * @param untitled what an untitled open thread is called, or null when none is open
 * @returns the title
 */
export function documentTitle(
  threadTitle: string | null,
  appTitle: string,
  untitled: string | null,
): string {
  const title = threadTitle?.trim() || untitled;
  return title ? `${title} · ${appTitle}` : appTitle;
}

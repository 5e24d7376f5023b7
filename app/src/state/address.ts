/**
 * The app's addresses: every thread has one (`#/t/<threadId>`), the start screen is `#/`.
 * A hash route, because the runtime serves the app's shell at `/` only and the service
 * worker precaches that one document: a reload, a bookmark or a link opened in a new tab
 * lands on the same shell and the hash says which thread to open.
 *
 * @module
 */

const THREAD_ADDRESS = /^#\/t\/(thread_[0-9a-f]{32})\/?$/;

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
 * The address of a thread, or of the start screen.
 *
 * @param threadId the thread, or null
 * @returns its hash
 */
export function addressOf(threadId: string | null): string {
  return threadId === null ? START_ADDRESS : `#/t/${threadId}`;
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

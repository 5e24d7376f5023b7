/**
 * Per-thread composer drafts that survive reloads. Each thread's unsent text lives in
 * Web Storage under its own key, so a crash or reload of the tab never loses what the
 * user was typing, and switching threads shows each thread its own draft.
 *
 * @module
 */
import { browserStorage } from "./web_storage.ts";

const PREFIX = "daedalus.draft.";
/** Drafts larger than this are not persisted (Web Storage quotas are a few MiB per origin). */
export const MAX_DRAFT_CHARS = 256 * 1024;

/** Reads and writes drafts in one Web Storage area. */
export interface Drafts {
  /** The saved draft of a thread, or "" when none. */
  get(threadId: string): string;
  /** Saves a draft; an empty or whitespace-only draft removes the entry. */
  set(threadId: string, text: string): void;
  /** Forgets a thread's draft (after it was sent). */
  clear(threadId: string): void;
}

/**
 * Drafts kept in `storage`. Storage failures (quota, private mode) are swallowed: a draft
 * that cannot be saved must never stop the user from typing or sending.
 *
 * @param storage where drafts live, normally `localStorage`
 */
export function createDrafts(storage: Storage | null): Drafts {
  return {
    get(threadId) {
      try {
        return storage?.getItem(PREFIX + threadId) ?? "";
      } catch {
        return "";
      }
    },
    set(threadId, text) {
      try {
        if (text.trim() === "" || text.length > MAX_DRAFT_CHARS) {
          storage?.removeItem(PREFIX + threadId);
        } else {
          storage?.setItem(PREFIX + threadId, text);
        }
      } catch {
        // Quota exceeded or storage disabled: the draft stays in memory only.
      }
    },
    clear(threadId) {
      try {
        storage?.removeItem(PREFIX + threadId);
      } catch {
        // Nothing stored, nothing to lose.
      }
    },
  };
}

/** The app's drafts, in `localStorage` when the browser offers it. */
export const drafts: Drafts = createDrafts(browserStorage());

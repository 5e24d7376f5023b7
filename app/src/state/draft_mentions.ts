/**
 * Referencing a file in the conversation (seed 000 §5): its path is added to the open
 * thread's draft, so the next message can ask about or edit it. The composer re-reads the
 * draft when `draftVersion` changes.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { drafts } from "./drafts.ts";

/** Bumped whenever something outside the composer changed a draft. */
export const draftVersion = signal(0);

/**
 * Appends a mention to a draft, separated by one space, ending with a space so typing
 * can go on.
 *
 * @param draft the draft so far
 * @param mention the text to add
 * @returns the new draft
 */
export function appendMention(draft: string, mention: string): string {
  if (draft === "") return `${mention} `;
  return /\s$/.test(draft) ? `${draft}${mention} ` : `${draft} ${mention} `;
}

/**
 * Adds a file's path (as inline code) to a thread's draft.
 *
 * @param threadId the thread
 * @param path the file's path as the tool named it
 */
export function mentionInDraft(threadId: string, path: string): void {
  // Backticks in a path would end the inline code early: use a longer fence then.
  const fence = path.includes("`") ? "``" : "`";
  const pad = path.startsWith("`") || path.endsWith("`") ? " " : "";
  drafts.set(threadId, appendMention(drafts.get(threadId), `${fence}${pad}${path}${pad}${fence}`));
  draftVersion.value++;
}

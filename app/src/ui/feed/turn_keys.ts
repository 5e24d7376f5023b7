/**
 * The keys of the turn navigator: Alt+ArrowUp/Alt+ArrowDown from anywhere in the
 * conversation, arrows/Home/End in its list; none of them while an IME composes text
 * (the arrows pick a candidate there).
 *
 * @module
 */

import { listKeyTarget } from "../list_keys.ts";

/** What the guards read of a keyboard event. */
export interface KeyInput {
  key: string;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
  isComposing?: boolean;
  /** 229 while an IME handles the key (some browsers do not set `isComposing` on it). */
  keyCode?: number;
}

/** The `keyCode` browsers report for a key an IME consumes. */
const IME_KEY_CODE = 229;

/**
 * Whether the key belongs to an IME composition and must be left alone.
 *
 * @param event the key event
 */
export function isImeComposing(event: Pick<KeyInput, "isComposing" | "keyCode">): boolean {
  return event.isComposing === true || event.keyCode === IME_KEY_CODE;
}

/**
 * The turn step a key asks for: Alt+ArrowUp the previous turn, Alt+ArrowDown the next.
 *
 * @param event the key event
 * @returns -1, 1, or null for any other key (or during composition)
 */
export function turnStep(event: KeyInput): -1 | 1 | null {
  if (isImeComposing(event)) return null;
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  if (event.key === "ArrowUp") return -1;
  if (event.key === "ArrowDown") return 1;
  return null;
}

/**
 * Where a key moves the active option of a list of `count` options: the list movement of
 * `listKeyTarget`, guarded against modifiers and IME composition.
 *
 * @param event the key event
 * @param index the active option (never -1: the navigator always has one)
 * @param count how many options there are
 * @returns the new index, or null when the key is not a list key (or during composition)
 */
export function listKeyIndex(event: KeyInput, index: number, count: number): number | null {
  if (isImeComposing(event)) return null;
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  return listKeyTarget(event.key, count, index);
}

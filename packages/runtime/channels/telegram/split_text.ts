/**
 * Splits a reply into Telegram messages of at most 4,096 UTF-16 code units (what the Bot
 * API counts), never between the two halves of a surrogate pair, and where it can at a
 * line break, else at a space, so words stay whole. Sent as plain text: the Markdown the
 * model writes reads fine as such and can never be refused as broken markup.
 *
 * @module
 */
import { TELEGRAM_MESSAGE_MAX_UNITS } from "./limits.ts";

/**
 * Splits `text` into pieces of at most `maxUnits` UTF-16 code units.
 *
 * @param text the reply
 * @param maxUnits the limit (default 4,096)
 * @returns the pieces, each non-empty and within the limit; `[]` for blank text
 * @example
 * ```ts
 * splitTelegramText("a".repeat(5000)).map((piece) => piece.length); // [4096, 904]
 * ```
 */
export function splitTelegramText(text: string, maxUnits = TELEGRAM_MESSAGE_MAX_UNITS): string[] {
  if (maxUnits < 2) throw new RangeError(`maxUnits must be at least 2, got ${maxUnits}`);
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > 0) {
    if (rest.length <= maxUnits) {
      pieces.push(rest);
      break;
    }
    const cut = cutPoint(rest, maxUnits);
    const piece = rest.slice(0, cut).trimEnd();
    if (piece.length > 0) pieces.push(piece);
    rest = rest.slice(cut).trimStart();
  }
  return pieces;
}

/** Where to end the next piece: a line break, else a space, in the later half; else the limit. */
function cutPoint(text: string, maxUnits: number): number {
  const window = text.slice(0, maxUnits + 1);
  const floor = Math.floor(maxUnits / 2);
  const newline = window.lastIndexOf("\n");
  if (newline >= floor) return newline;
  const space = Math.max(window.lastIndexOf(" "), window.lastIndexOf("\t"));
  if (space >= floor) return space;
  // A hard cut: step back one unit when it would fall inside a surrogate pair.
  const before = text.charCodeAt(maxUnits - 1);
  return before >= 0xd800 && before <= 0xdbff ? maxUnits - 1 : maxUnits;
}

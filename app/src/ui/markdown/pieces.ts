/**
 * A long answer cut into pieces that are parsed and rendered one per task: the first
 * piece is what shows before "Show all" (`COLLAPSE_CHARS`), the others `PIECE_CHARS`
 * each. A cut falls on a blank line when the second half of the window has one (a block
 * boundary), else on a line end, a space, or, for one endless word, anywhere. A cut inside
 * a fenced code block carries the fence's opening line over to the next piece, so the
 * code goes on as code. Pieces are cheap to find (`indexOf`, one look at each line's
 * start), and while the answer streams only the last piece is cut again.
 *
 * @module
 */

/** One piece of a text. */
export interface Piece {
  /** Its first character in the text. */
  readonly start: number;
  /** One past its last character. */
  readonly end: number;
  /** The fence line it continues ("" outside code): parse `prefix + "\n" + text`. */
  readonly prefix: string;
}

/** The pieces of one text (what the next call extends). */
export interface Pieces {
  readonly text: string;
  readonly pieces: readonly Piece[];
}

/** Sizes of the first piece and of the others, in characters. */
export interface PieceSizes {
  readonly first: number;
  readonly rest: number;
}

// An opening or closing code fence (CommonMark: up to 3 spaces, 3+ backticks or tildes).
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
// A longer line is never a closing fence; an opening one carries a short info string.
const FENCE_LINE_MAX = 1000;

/** Where a piece from `start` ends, at most `max` characters on. */
export function pieceEnd(text: string, start: number, max: number): number {
  if (text.length - start <= max) return text.length;
  const limit = start + max;
  const lowest = start + Math.floor(max / 2);
  for (const [mark, skip] of [["\n\n", 2], ["\n", 1], [" ", 1]] as const) {
    const at = text.lastIndexOf(mark, limit - skip);
    if (at >= lowest) return at + skip;
  }
  // One endless word: anywhere, but never between the halves of a surrogate pair.
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/**
 * The fence still open at `to`, scanning from `from` with `open` already open.
 *
 * @param text the text
 * @param from where to start (a line's start)
 * @param to where to stop
 * @param open the opening fence line open at `from`, or ""
 * @returns the opening fence line open at `to`, or ""
 */
export function openFenceAt(text: string, from: number, to: number, open: string): string {
  let opener = open;
  let marker = open ? FENCE.exec(open)?.[1] ?? "" : "";
  for (let at = from; at < to;) {
    let end = text.indexOf("\n", at);
    if (end === -1 || end > to) end = to;
    const match = end - at <= FENCE_LINE_MAX ? FENCE.exec(text.slice(at, end)) : null;
    if (match) {
      const [line, fence = "", rest = ""] = match;
      if (!marker) {
        // A backtick fence's info string may not contain a backtick (CommonMark).
        if (!(fence[0] === "`" && rest.includes("`"))) {
          marker = fence;
          opener = line;
        }
      } else if (fence[0] === marker[0] && fence.length >= marker.length && rest.trim() === "") {
        marker = "";
        opener = "";
      }
    }
    at = end + 1;
  }
  return marker ? opener : "";
}

function cut(text: string, from: Piece[], start: number, prefix: string, sizes: PieceSizes) {
  let at = start;
  let open = prefix;
  while (at < text.length || from.length === 0) {
    const end = pieceEnd(text, at, from.length === 0 ? sizes.first : sizes.rest);
    from.push({ start: at, end, prefix: open });
    if (end >= text.length) break;
    open = openFenceAt(text, at, end, open);
    at = end;
  }
  return from;
}

/**
 * Cuts a text into pieces, keeping every piece of `previous` but the last when the text
 * extends it (a streaming answer).
 *
 * @param text the whole text
 * @param sizes the first piece's and the others' largest size
 * @param previous the pieces of an earlier version of this text
 * @returns the pieces; there is always at least one
 */
export function splitPieces(text: string, sizes: PieceSizes, previous?: Pieces | null): Pieces {
  const last = previous?.pieces.at(-1);
  if (previous && last && text.startsWith(previous.text)) {
    const kept = previous.pieces.slice(0, -1);
    return { text, pieces: cut(text, kept, last.start, last.prefix, sizes) };
  }
  return { text, pieces: cut(text, [], 0, "", sizes) };
}

/**
 * The Markdown a piece parses as.
 *
 * @param text the whole text
 * @param piece one of its pieces
 * @returns the piece's text, after its fence line when it continues a code block
 */
export function pieceSource(text: string, piece: Piece): string {
  const body = text.slice(piece.start, piece.end);
  return piece.prefix ? `${piece.prefix}\n${body}` : body;
}

/**
 * The snippet of a search result: a window of plain text around the first match, with
 * every match inside it marked by UTF-16 offsets (never HTML, so a client renders it
 * with its own escaping). Matching is a case-insensitive literal substring, like the
 * trigram index's, and whitespace runs count as one space, since the snippet shows them
 * as one.
 *
 * @module
 */
import { SEARCH_SNIPPET_MAX_CHARS } from "@daedalus/protocol";

/** A match in a snippet: UTF-16 offsets `[start, end)`. */
export interface SnippetHighlight {
  /** Its first code unit. */
  start: number;
  /** One past its last code unit. */
  end: number;
}

/** A snippet and where the query occurs in it. */
export interface Snippet {
  /** At most `maxChars` code units, `…` at a cut end. */
  text: string;
  /** The matches inside `text`, in order, not overlapping; empty when none is found. */
  highlights: SnippetHighlight[];
}

const ELLIPSIS = "…";

/** How much of the window comes before the first match: a third, so it reads as context. */
const LEAD_SHARE = 1 / 3;

/** How far the window's start may move forward to begin at a word. */
const WORD_SNAP_CHARS = 12;

/**
 * Cuts the snippet of `content` for `query`.
 *
 * @param content the message text
 * @param query what was searched for (trimmed)
 * @param maxChars the longest snippet, ellipses included; default the protocol's
 * @returns the snippet; from the start of the text, with no highlights, when the query
 *   is not found (a match the index made under a folding JavaScript does not share)
 * @example
 * ```ts
 * buildSnippet("The quick brown fox", "QUICK");
 * // { text: "The quick brown fox", highlights: [{ start: 4, end: 9 }] }
 * ```
 */
export function buildSnippet(
  content: string,
  query: string,
  maxChars: number = SEARCH_SNIPPET_MAX_CHARS,
): Snippet {
  const text = collapseWhitespace(content);
  const needle = collapseWhitespace(query);
  if (text.length <= maxChars) return { text, highlights: findMatches(text, needle) };
  const matches = matchesNearFirst(text, needle, maxChars);
  const first = matches[0];
  let start = 0;
  if (first !== undefined) {
    const room = Math.max(0, maxChars - 2 - (first.end - first.start));
    start = Math.max(0, first.start - Math.floor(room * LEAD_SHARE));
    start = snapToWord(text, start, first.start);
  }
  start = avoidSplitPair(text, start);
  const prefix = start > 0 ? ELLIPSIS : "";
  let end = start + maxChars - prefix.length;
  let suffix = "";
  if (end < text.length) {
    suffix = ELLIPSIS;
    end -= suffix.length;
  } else {
    end = text.length;
  }
  end = avoidSplitPair(text, end);
  const shift = prefix.length - start;
  const highlights = matches
    .filter((m) => m.end > start && m.start < end)
    .map((m) => ({ start: Math.max(m.start, start) + shift, end: Math.min(m.end, end) + shift }));
  return { text: prefix + text.slice(start, end) + suffix, highlights };
}

/**
 * Every non-overlapping occurrence of `needle` in `haystack`, compared case-insensitively
 * code point by code point (a lowercased character may be longer than the original, so
 * offsets are mapped back to the original text).
 *
 * @param haystack the text searched
 * @param needle the text looked for; empty finds nothing
 * @returns the matches' offsets in `haystack`, in order
 */
export function findMatches(haystack: string, needle: string): SnippetHighlight[] {
  const folded = fold(needle).text;
  if (folded.length === 0) return [];
  const { text, starts, ends } = fold(haystack);
  const found: SnippetHighlight[] = [];
  let from = 0;
  while (from <= text.length - folded.length) {
    const at = text.indexOf(folded, from);
    if (at < 0) break;
    const last = at + folded.length - 1;
    found.push({ start: starts[at]!, end: ends[last]! });
    from = at + folded.length;
  }
  return found;
}

/**
 * The matches around the first one in a long text: found with one whole-string lowercase
 * search, then mapped exactly by folding only the stretch the snippet can show, so a
 * 1 MB answer costs one scan rather than a fold of every character.
 */
function matchesNearFirst(text: string, needle: string, maxChars: number): SnippetHighlight[] {
  const near = text.toLowerCase().indexOf(needle.toLowerCase());
  if (near < 0 || needle.length === 0) return [];
  // Lowercasing may lengthen a few characters before the match: room for that drift.
  const slack = maxChars + needle.length;
  const from = Math.max(0, near - slack);
  const region = text.slice(from, Math.min(text.length, near + needle.length + 2 * slack));
  return findMatches(region, needle).map((m) => ({ start: m.start + from, end: m.end + from }));
}

/** The text with every whitespace run as one space, trimmed. */
function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Lowercases code point by code point, remembering each folded unit's source span. */
function fold(text: string): { text: string; starts: number[]; ends: number[] } {
  let folded = "";
  const starts: number[] = [];
  const ends: number[] = [];
  let offset = 0;
  for (const char of text) {
    const lower = char.toLowerCase();
    for (let i = 0; i < lower.length; i++) {
      starts.push(offset);
      ends.push(offset + char.length);
    }
    folded += lower;
    offset += char.length;
  }
  return { text: folded, starts, ends };
}

/** Moves a window start forward to just after a space, when one is near and before the match. */
function snapToWord(text: string, start: number, matchStart: number): number {
  if (start === 0) return 0;
  const space = text.indexOf(" ", start);
  if (space >= 0 && space < matchStart && space - start <= WORD_SNAP_CHARS) return space + 1;
  return start;
}

/** Keeps a cut from falling between the two halves of a surrogate pair. */
function avoidSplitPair(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

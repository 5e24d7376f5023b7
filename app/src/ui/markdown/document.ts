/**
 * A Markdown text as a list of top-level blocks, each with its source text, re-parsed
 * incrementally while an answer streams: when the new text extends the previous one,
 * every block but the last is kept as it was (a block that a later block follows is
 * closed for good) and only the text from the last block's start is parsed again.
 * Link reference and footnote definitions (and inline footnotes) are global to a document, so a text that has
 * any is parsed whole each time (it is at most `COLLAPSE_CHARS` long).
 *
 * @module
 */
import { parseTokens, type Token } from "./parser.ts";

/** One top-level block: its tokens and the source they came from. */
export interface Block {
  /** The block's source lines (what it is memoized by). */
  readonly source: string;
  /** Where its source starts in the document, in characters. */
  readonly start: number;
  /** Its markdown-it tokens, from its opening to its closing token. */
  readonly tokens: readonly Token[];
}

/** A parsed document. */
export interface ParsedDocument {
  /** The text that was parsed. */
  readonly text: string;
  /** The top-level blocks in order (footnote definitions excluded). */
  readonly blocks: readonly Block[];
  /** The footnote section's tokens (`footnote_block_open` … close), or none. */
  readonly footnotes: readonly Token[];
  /**
   * The document's definition lines joined, "" when it has none: a block's rendering
   * can depend on them (a `[label]` link, a footnote number), so blocks are memoized by
   * their source and this.
   */
  readonly definitions: string;
}

// `[label]: target` and `[^note]: text`, at most three spaces in (CommonMark).
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:.*$/gm;

function definitionsOf(text: string): string {
  const lines = (text.match(DEFINITION) ?? []).join("\n");
  // An inline footnote `^[…]` is numbered and listed with the document's others.
  return text.includes("^[") ? `${lines}\n^[` : lines;
}

/** Character offsets of each line's start, plus the text's length at the end. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
    starts.push(at + 1);
  }
  starts.push(text.length);
  return starts;
}

/** Splits a token list into top-level blocks and the footnote section. */
function splitBlocks(text: string, offset: number, tokens: readonly Token[]) {
  const starts = lineStarts(text);
  const lineAt = (line: number) => starts[Math.min(line, starts.length - 1)]!;
  const blocks: Block[] = [];
  let footnotes: readonly Token[] = [];
  let i = 0;
  while (i < tokens.length) {
    const open = tokens[i]!;
    if (open.type === "footnote_block_open") {
      footnotes = tokens.slice(i);
      break;
    }
    let end = i;
    if (open.nesting === 1) {
      let depth = 0;
      for (; end < tokens.length; end++) {
        depth += tokens[end]!.nesting;
        if (depth === 0) break;
      }
    }
    const [from = 0, to = from] = open.map ?? [];
    blocks.push({
      source: text.slice(lineAt(from), lineAt(to)),
      start: offset + lineAt(from),
      tokens: tokens.slice(i, end + 1),
    });
    i = end + 1;
  }
  return { blocks, footnotes };
}

/**
 * Parses `text`, reusing what `previous` already parsed when `text` extends it.
 *
 * @param text the Markdown source
 * @param previous the last result for the same message, if any
 * @returns the document's blocks
 */
export function parseDocument(text: string, previous?: ParsedDocument | null): ParsedDocument {
  const definitions = definitionsOf(text);
  const last = previous?.blocks.at(-1);
  if (
    previous && last && definitions === "" && previous.definitions === "" &&
    text.startsWith(previous.text)
  ) {
    const tail = text.slice(last.start);
    const fresh = splitBlocks(tail, last.start, parseTokens(tail));
    return {
      text,
      blocks: [...previous.blocks.slice(0, -1), ...fresh.blocks],
      footnotes: fresh.footnotes,
      definitions,
    };
  }
  const whole = splitBlocks(text, 0, parseTokens(text));
  return { text, blocks: whole.blocks, footnotes: whole.footnotes, definitions };
}

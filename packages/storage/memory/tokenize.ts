/**
 * The recall tokenizer: NFKC, then case folding, then Latin/number words, single Han
 * characters and Han bigrams. Written into `memory_fts.tokens` separated by spaces (so
 * FTS5's own tokenizer sees each one as a token) and applied to queries the same way,
 * which lets one- and two-character Chinese queries use the index instead of a LIKE scan.
 *
 * @example
 * ```ts
 * tokenizeMemoryText("我喜欢 Café"); // ["我", "喜", "欢", "我喜", "喜欢", "café"]
 * ```
 *
 * @module
 */

const SEGMENT = /(\p{Script=Han}+)|((?:(?!\p{Script=Han})[\p{L}\p{N}\p{M}])+)/gu;

/**
 * Splits text into recall tokens, in order, repeats kept (so BM25 sees term frequency).
 * A Han run yields its characters, then its bigrams; any other run of letters, digits
 * and marks is one word.
 *
 * @param text memory content or a query
 * @returns the tokens; empty when the text has no letters or digits
 */
export function tokenizeMemoryText(text: string): string[] {
  const folded = text.normalize("NFKC").toLowerCase();
  const tokens: string[] = [];
  for (const match of folded.matchAll(SEGMENT)) {
    if (match[1] === undefined) {
      tokens.push(match[0]);
      continue;
    }
    const chars = Array.from(match[1]);
    tokens.push(...chars);
    for (let index = 0; index + 1 < chars.length; index += 1) {
      tokens.push(chars[index] + chars[index + 1]);
    }
  }
  return tokens;
}

/**
 * The distinct tokens of a text, first occurrence first.
 *
 * @param text memory content or a query
 * @returns each token once
 */
export function distinctMemoryTokens(text: string): string[] {
  return [...new Set(tokenizeMemoryText(text))];
}

/**
 * The value stored in `memory_fts.tokens` for a memory's content.
 *
 * @param content the current revision's content
 * @returns the tokens joined by single spaces
 */
export function memoryIndexText(content: string): string {
  return tokenizeMemoryText(content).join(" ");
}

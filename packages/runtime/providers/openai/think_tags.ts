/**
 * `<think>…</think>` at the start of an answer, as local reasoning models put it in
 * `content` when the server does not parse it out: llama.cpp with `--reasoning-format
 * none` (its default parses it into `reasoning_content`), vLLM without a
 * `--reasoning-parser`, Ollama's OpenAI endpoint for older builds. The block becomes
 * reasoning and the answer starts after it. Only a block at the very start (after
 * whitespace) counts: a `<think>` later in an answer is the answer's own text.
 *
 * Not handled in the stream: templates that put the opening `<think>` into the prompt,
 * so that the model streams only the closing tag; without the opening tag nothing marks
 * the start as reasoning until it is too late to take it back (run such models with
 * the server's reasoning parser). Text collected whole, such as a title, drops it:
 * {@linkcode stripThinkBlock}.
 *
 * @module
 */

const OPEN = "<think>";
const CLOSE = "</think>";

/** What one piece of content is, once split. */
export interface SplitContent {
  /** Reasoning (inside the block). */
  reasoning: string;
  /** Answer text. */
  text: string;
}

/**
 * Splits streamed content into reasoning and answer; tags may arrive cut anywhere.
 *
 * @example
 * ```ts
 * const split = new ThinkTagSplitter();
 * split.push("<thi");         // { reasoning: "", text: "" } (held: it may be the tag)
 * split.push("nk>Hmm.</th");  // { reasoning: "Hmm.", text: "" }
 * split.push("ink>\n\nHi");   // { reasoning: "", text: "Hi" }
 * ```
 */
export class ThinkTagSplitter {
  #state: "start" | "thinking" | "answer" = "start";
  #held = "";
  /** After the block, the whitespace that separates it from the answer is dropped. */
  #trimAnswerStart = false;
  /** So is the line break after the opening tag. */
  #trimReasoningStart = true;

  /**
   * Splits the next piece.
   *
   * @param piece content as streamed
   * @returns what of it (and of what was held before) is reasoning and text now
   */
  push(piece: string): SplitContent {
    const out: SplitContent = { reasoning: "", text: "" };
    let rest = piece;
    if (this.#state === "start") {
      this.#held += rest;
      rest = "";
      const trimmed = this.#held.trimStart();
      if (trimmed === "" || (trimmed.length < OPEN.length && OPEN.startsWith(trimmed))) {
        return out; // could still become the opening tag
      }
      if (trimmed.startsWith(OPEN)) {
        this.#state = "thinking";
        rest = trimmed.slice(OPEN.length);
      } else {
        this.#state = "answer";
        rest = this.#held;
      }
      this.#held = "";
    }
    if (this.#state === "thinking") {
      const pending = this.#held + rest;
      const close = pending.indexOf(CLOSE);
      if (close === -1) {
        const keep = partialTagSuffix(pending, CLOSE);
        out.reasoning = this.#reasoning(pending.slice(0, pending.length - keep));
        this.#held = pending.slice(pending.length - keep);
        return out;
      }
      out.reasoning = this.#reasoning(pending.slice(0, close));
      this.#held = "";
      this.#state = "answer";
      this.#trimAnswerStart = true;
      rest = pending.slice(close + CLOSE.length);
    }
    out.text = this.#answer(rest);
    return out;
  }

  /**
   * Ends the content: what was held back is released (an unclosed block is reasoning,
   * as when the output was cut in the middle of it).
   *
   * @returns the rest
   */
  end(): SplitContent {
    const held = this.#held;
    this.#held = "";
    if (this.#state === "thinking") return { reasoning: this.#reasoning(held), text: "" };
    return { reasoning: "", text: held };
  }

  #reasoning(text: string): string {
    if (!this.#trimReasoningStart) return text;
    const trimmed = text.trimStart();
    if (trimmed !== "") this.#trimReasoningStart = false;
    return trimmed;
  }

  #answer(text: string): string {
    if (!this.#trimAnswerStart) return text;
    const trimmed = text.trimStart();
    if (trimmed !== "") this.#trimAnswerStart = false;
    return trimmed;
  }
}

/**
 * An answer without a leading `<think>` block (for text collected whole, such as a
 * thread title, from a provider that did not split it). Text collected whole can also
 * lose a block whose opening tag was in the prompt (templates that end the prompt with
 * `<think>`): everything up to a lone `</think>` goes too.
 *
 * @param text the answer
 * @returns the answer after the block; "" when the block never closed
 */
export function stripThinkBlock(text: string): string {
  const split = new ThinkTagSplitter();
  const first = split.push(text);
  const answer = first.text + split.end().text;
  const close = answer.indexOf(CLOSE);
  if (close === -1 || answer.lastIndexOf(OPEN, close) !== -1) return answer;
  return answer.slice(close + CLOSE.length).trimStart();
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}

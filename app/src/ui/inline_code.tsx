import type { ComponentChildren } from "preact";

/**
 * A sentence with `commands` in backticks, as the strings write them, shown with those
 * parts as code instead of raw backticks.
 *
 * @param text the sentence
 * @returns text and `<code>` elements
 */
export function withInlineCode(text: string): ComponentChildren[] {
  return text.split("`").map((part, index) =>
    index % 2 === 1 ? <code key={index}>{part}</code> : part
  );
}

/**
 * The one configured markdown-it instance: GitHub-flavoured Markdown (tables,
 * strikethrough and autolink literals are markdown-it's own, footnotes come from
 * markdown-it-footnote, task lists are read by the walker) with raw HTML off, so
 * `<script>` and friends stay text. Its output is a token list that `walker.ts` turns
 * into Preact vnodes; markdown-it's HTML renderer is never used.
 *
 * @module
 */
import MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";
import footnote from "markdown-it-footnote";
import { safeHref } from "./safe_href.ts";

export type { Token };

const markdown = new MarkdownIt("default", {
  html: false, // raw HTML is text
  linkify: true, // GFM autolink literals (www.…, https://…, e-mail addresses)
  breaks: true, // a newline in an answer is a line break, as the models mean it
  typographer: false,
});
markdown.use(footnote);
// GFM links "www." hosts, URLs with a scheme and e-mail addresses, but not a bare
// "example.com" (linkify's fuzzy links), which would turn file names like "main.rs" into links.
markdown.linkify.set({ fuzzyLink: true, fuzzyEmail: true });
const linkifyMatch = markdown.linkify.match.bind(markdown.linkify);
markdown.linkify.match = (text: string) =>
  (linkifyMatch(text) ?? []).filter((m) => m.schema !== "" || /^www\./i.test(m.raw));
// A link whose target safeHref refuses stays literal text (the walker checks again).
markdown.validateLink = (url: string) => safeHref(url) !== null;

/**
 * Parses Markdown into markdown-it's block tokens (inline tokens as their children).
 *
 * @param text the Markdown source
 * @returns the token list
 */
export function parseTokens(text: string): Token[] {
  return markdown.parse(text, {});
}

/**
 * Block Markdown → Preact vnodes: paragraphs, ATX headings, fenced code blocks, bullet
 * and numbered lists (nesting by indentation), blockquotes and thematic breaks. A fence
 * left open (a streaming answer) runs to the end of the text.
 *
 * @module
 */
import { h, type VNode } from "preact";

/** A block vnode with its props. */
export type Block = VNode;
import { renderInline } from "./inline.ts";

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+\s*)?$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])\s+(.*)$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || QUOTE.test(line) || ITEM.test(line) ||
    RULE.test(line);
}

function withBreaks(lines: readonly string[]) {
  const children = [];
  for (const [i, line] of lines.entries()) {
    if (i > 0) children.push(h("br", null));
    children.push(...renderInline(line));
  }
  return children;
}

/**
 * Renders Markdown text as a list of block vnodes.
 *
 * @param text the Markdown
 * @returns the blocks
 */
export function renderMarkdown(text: string): Block[] {
  return blocks(text.replace(/\r\n?/g, "\n").split("\n"));
}

function blocks(lines: readonly string[]): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(marker)) body.push(lines[i++]!);
      i++; // the closing fence (or past the end)
      const lang = fence[2] ? { class: `language-${fence[2]}` } : null;
      out.push(h("pre", null, h("code", lang, body.join("\n"))));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      out.push(h(`h${heading[1]!.length}`, null, renderInline(heading[2]!)));
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push(h("hr", null));
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) body.push(QUOTE.exec(lines[i++]!)![1]!);
      out.push(h("blockquote", null, blocks(body)));
      continue;
    }
    if (ITEM.test(line)) {
      i = list(lines, i, out);
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length && lines[i]!.trim() !== "" && (para.length === 0 || !startsBlock(lines[i]!))
    ) {
      para.push(lines[i++]!.trim());
    }
    out.push(h("p", null, withBreaks(para)));
  }
  return out;
}

/** Reads one list starting at `start`; returns the index after it. */
function list(lines: readonly string[], start: number, out: Block[]): number {
  const first = ITEM.exec(lines[start]!)!;
  const ordered = /\d/.test(first[2]!);
  const indent = first[1]!.length;
  const items: VNode[] = [];
  let i = start;
  while (i < lines.length) {
    const m = ITEM.exec(lines[i]!);
    if (!m || m[1]!.length !== indent || /\d/.test(m[2]!) !== ordered) break;
    const body = [m[3]!];
    const inset = indent + m[2]!.length + 1;
    i++;
    while (i < lines.length) {
      const next = lines[i]!;
      const blank = next.trim() === "";
      const nested = next.length - next.trimStart().length >= Math.min(inset, indent + 2);
      if (blank || !nested) break;
      body.push(next.slice(Math.min(inset, next.length - next.trimStart().length)));
      i++;
    }
    const inner = blocks(body);
    const only = inner.length === 1 && inner[0]!.type === "p" ? inner[0]!.props.children : inner;
    items.push(h("li", null, only));
    while (i < lines.length && lines[i]!.trim() === "" && ITEM.test(lines[i + 1] ?? "")) i++;
  }
  const startAt = ordered ? parseInt(first[2]!, 10) : 1;
  const props: Record<string, unknown> = ordered && startAt !== 1 ? { start: startAt } : {};
  out.push(h(ordered ? "ol" : "ul", props, items) as VNode);
  return i;
}

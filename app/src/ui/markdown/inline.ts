/**
 * Inline Markdown → Preact children: `code`, [links](https://…), **strong** or __strong__
 * and *emphasis* or _emphasis_. Everything else, raw HTML included, stays text that Preact
 * escapes; no innerHTML is ever used.
 *
 * @module
 */
import { type ComponentChildren, h } from "preact";
import { safeHref } from "./safe_href.ts";

interface Rule {
  pattern: RegExp;
  render: (match: RegExpExecArray) => ComponentChildren;
}

const RULES: readonly Rule[] = [
  { pattern: /`([^`\n]+)`/, render: (m) => h("code", null, m[1]) },
  {
    pattern: /\[([^\]\n]+)\]\(([^()\s]+)\)/,
    render: (m) => {
      const href = safeHref(m[2]!);
      const children = renderInline(m[1]!);
      return href === null
        ? h("span", { class: "md-unsafe-link" }, children)
        : h("a", { href, rel: "noopener noreferrer", target: "_blank" }, children);
    },
  },
  { pattern: /\*\*(?=\S)([^\n]*?\S)\*\*/, render: (m) => h("strong", null, renderInline(m[1]!)) },
  {
    pattern: /(?<![\w])__(?=\S)([^\n]*?\S)__(?![\w])/,
    render: (m) => h("strong", null, renderInline(m[1]!)),
  },
  { pattern: /\*(?=[^\s*])([^*\n]*?[^\s*])?\*/, render: (m) => emphasis(m) },
  { pattern: /(?<![\w])_(?=[^\s_])([^_\n]*?[^\s_])?_(?![\w])/, render: (m) => emphasis(m) },
];

function emphasis(m: RegExpExecArray): ComponentChildren {
  const inner = m[0].slice(1, -1);
  return h("em", null, renderInline(inner));
}

/**
 * Renders one block's inline Markdown.
 *
 * @param text the text (may contain newlines, kept as text)
 * @returns strings and vnodes, in order
 */
export function renderInline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let rest = text;
  while (rest !== "") {
    let best: { match: RegExpExecArray; rule: Rule } | null = null;
    for (const rule of RULES) {
      const match = rule.pattern.exec(rest);
      if (match && (best === null || match.index < best.match.index)) best = { match, rule };
    }
    if (best === null) {
      out.push(rest);
      break;
    }
    if (best.match.index > 0) out.push(rest.slice(0, best.match.index));
    out.push(best.rule.render(best.match));
    rest = rest.slice(best.match.index + best.match[0].length);
  }
  return out;
}

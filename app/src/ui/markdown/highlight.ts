/**
 * Syntax highlighting, loaded on first use (a dynamic import keeps highlight.js and its
 * grammars out of the initial bundle): lowlight runs highlight.js and hands back a hast
 * tree of `<span class="hljs-…">` and text, which becomes vnodes here — no HTML string
 * is ever made or parsed.
 *
 * @module
 */
import { createLowlight } from "lowlight";
import type { ElementContent, Root } from "hast";
import { h, type VNode } from "preact";
import type { LanguageFn } from "highlight.js";
import javascript from "highlight.js/lib/languages/javascript";
import typescript from "highlight.js/lib/languages/typescript";
import python from "highlight.js/lib/languages/python";
import bash from "highlight.js/lib/languages/bash";
import shell from "highlight.js/lib/languages/shell";
import json from "highlight.js/lib/languages/json";
import yaml from "highlight.js/lib/languages/yaml";
import xml from "highlight.js/lib/languages/xml";
import css from "highlight.js/lib/languages/css";
import go from "highlight.js/lib/languages/go";
import rust from "highlight.js/lib/languages/rust";
import java from "highlight.js/lib/languages/java";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import sql from "highlight.js/lib/languages/sql";
import diff from "highlight.js/lib/languages/diff";
import markdown from "highlight.js/lib/languages/markdown";
import type { Grammar } from "./code_language.ts";

const grammars: Record<Grammar, LanguageFn> = {
  javascript,
  typescript,
  python,
  bash,
  shell,
  json,
  yaml,
  xml,
  css,
  go,
  rust,
  java,
  c,
  cpp,
  sql,
  diff,
  markdown,
};

const lowlight = createLowlight(grammars);

type Child = string | VNode<Record<string, unknown>>;

function toVnodes(nodes: readonly ElementContent[]): Child[] {
  const out: Child[] = [];
  for (const node of nodes) {
    if (node.type === "text") out.push(node.value);
    else if (node.type === "element") {
      // lowlight only makes spans; their classes are highlight.js scope names.
      const names = node.properties?.className;
      const className = Array.isArray(names) ? names.map(String).join(" ") : "";
      const props: Record<string, unknown> = className ? { class: className } : {};
      out.push(h("span", props, toVnodes(node.children)));
    }
  }
  return out;
}

/**
 * Highlights code with a registered grammar.
 *
 * @param grammar the grammar
 * @param code the code
 * @returns strings and `<span class="hljs-…">` vnodes; their text is exactly `code`
 */
export function highlightCode(grammar: Grammar, code: string): Child[] {
  const root: Root = lowlight.highlight(grammar, code);
  return toVnodes(root.children as ElementContent[]);
}

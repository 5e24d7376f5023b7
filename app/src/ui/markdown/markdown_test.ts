import assert from "node:assert/strict";
import type { ComponentChildren, VNode } from "preact";
import { renderMarkdown } from "./blocks.ts";
import { renderInline } from "./inline.ts";
import { safeHref } from "./safe_href.ts";

/** A compact, comparable form of a vnode tree: [type, props?, ...children]. */
type Shape = string | [string, ...unknown[]];

function shape(node: ComponentChildren): Shape | Shape[] | null {
  if (node === null || node === undefined || typeof node === "boolean") return null;
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(shape).filter((s) => s !== null) as Shape[];
  const vnode = node as VNode<Record<string, unknown>>;
  const { children, ...props } = vnode.props;
  const kids = children === undefined ? [] : [children].flat(Infinity as 1).map(shape)
    .filter((s) => s !== null);
  const type = String(vnode.type);
  return Object.keys(props).length ? [type, props, ...kids] : [type, ...kids];
}

function all(nodes: ComponentChildren): VNode<Record<string, unknown>>[] {
  const found: VNode<Record<string, unknown>>[] = [];
  const walk = (n: ComponentChildren) => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (n && typeof n === "object" && "type" in n) {
      const v = n as VNode<Record<string, unknown>>;
      found.push(v);
      walk(v.props.children as ComponentChildren);
    }
  };
  walk(nodes);
  return found;
}

Deno.test("markdown: headings, paragraphs, emphasis, code and links", () => {
  const md = [
    "# Title",
    "",
    "Some **bold** and *it* and `x < y` with [a link](https://example.com/a?b=1).",
    "second line",
    "",
    "```ts",
    "const a = 1 < 2;",
    "```",
  ].join("\n");
  assert.deepEqual(shape(renderMarkdown(md)), [
    ["h1", "Title"],
    [
      "p",
      "Some ",
      ["strong", "bold"],
      " and ",
      ["em", "it"],
      " and ",
      ["code", "x < y"],
      " with ",
      ["a", {
        href: "https://example.com/a?b=1",
        rel: "noopener noreferrer",
        target: "_blank",
      }, "a link"],
      ".",
      ["br"],
      "second line",
    ],
    ["pre", ["code", { class: "language-ts" }, "const a = 1 < 2;"]],
  ]);
});

Deno.test("markdown: lists, nesting, blockquotes and rules", () => {
  const md = [
    "- one",
    "- two",
    "  - nested",
    "",
    "3. three",
    "4. four",
    "",
    "> quoted **text**",
    "> more",
    "",
    "---",
  ].join("\n");
  assert.deepEqual(shape(renderMarkdown(md)), [
    ["ul", ["li", "one"], ["li", ["p", "two"], ["ul", ["li", "nested"]]]],
    ["ol", { start: 3 }, ["li", "three"], ["li", "four"]],
    ["blockquote", ["p", "quoted ", ["strong", "text"], ["br"], "more"]],
    ["hr"],
  ]);
});

Deno.test("markdown: an unclosed fence (streaming) runs to the end", () => {
  assert.deepEqual(shape(renderMarkdown("```\nline 1\nline 2")), [["pre", [
    "code",
    "line 1\nline 2",
  ]]]);
});

Deno.test("markdown: raw HTML is text, never an element", () => {
  const md = [
    "<script>alert(1)</script>",
    "",
    '<img src=x onerror="alert(1)">',
    "",
    "- <b>bold?</b>",
  ].join("\n");
  const nodes = renderMarkdown(md);
  const types = all(nodes).map((v) => v.type);
  assert.deepEqual(types, ["p", "p", "ul", "li"]);
  assert.deepEqual(shape(nodes), [
    ["p", "<script>alert(1)</script>"],
    ["p", '<img src=x onerror="alert(1)">'],
    ["ul", ["li", "<b>bold?</b>"]],
  ]);
});

Deno.test("markdown: unsafe link targets never become hrefs", () => {
  const md = [
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert)",
    "[x](data:text/html,hi)",
    "[x](vbscript:msgbox)",
    "[x](//evil.example)",
    "[x](/relative)",
    "[x](java\tscript:alert)",
    "[ok](mailto:me@example.com)",
  ].join("\n\n");
  const anchors = all(renderMarkdown(md)).filter((v) => v.type === "a");
  assert.deepEqual(anchors.map((a) => a.props.href), ["mailto:me@example.com"]);
  for (const v of all(renderMarkdown(md))) {
    for (const [name, value] of Object.entries(v.props)) {
      assert.ok(!/^on/i.test(name), name);
      assert.ok(!(typeof value === "string" && /javascript:/i.test(value)), String(value));
    }
  }
});

Deno.test("safeHref allows only http, https and mailto", () => {
  assert.equal(safeHref("https://a.example/x"), "https://a.example/x");
  assert.equal(safeHref("HTTP://a.example"), "http://a.example/");
  assert.equal(safeHref("mailto:a@b.c"), "mailto:a@b.c");
  for (const bad of ["javascript:alert(1)", " javascript:x", "data:x", "ftp://a", "//a", "a"]) {
    assert.equal(safeHref(bad), null, bad);
  }
});

Deno.test("inline: markers inside code stay literal; snake_case is not emphasis", () => {
  assert.deepEqual(shape(renderInline("`**a**` snake_case_name")), [
    ["code", "**a**"],
    " snake_case_name",
  ]);
});

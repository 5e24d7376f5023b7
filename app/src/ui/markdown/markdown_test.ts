import assert from "node:assert/strict";
import type { ComponentChildren, VNode } from "preact";
import { inEnglish } from "../../_testing.ts";
import { parseDocument } from "./document.ts";
import { renderTokens } from "./walker.ts";
import { safeHref } from "./safe_href.ts";

/** A compact, comparable form of a vnode tree: [type, props?, ...children]. */
type Shape = string | [string, ...unknown[]];

function shape(node: ComponentChildren): Shape | Shape[] | null {
  if (node === null || node === undefined || typeof node === "boolean") return null;
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(shape).filter((s) => s !== null) as Shape[];
  const vnode = node as VNode<Record<string, unknown>>;
  const { children, ...rest } = vnode.props;
  // Handlers are checked on their own (only footnote links have one).
  const props = Object.fromEntries(Object.entries(rest).filter(([, v]) => typeof v !== "function"));
  const kids = children === undefined ? [] : [children].flat(Infinity as 1).map(shape)
    .filter((s) => s !== null);
  const type = typeof vnode.type === "function" ? vnode.type.name : String(vnode.type);
  return Object.keys(props).length ? [type, props, ...kids] : [type, ...kids];
}

/** Every element vnode in a tree (components count as their own type). */
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

/** The whole document rendered: every block, then the footnotes. */
function render(md: string): VNode[] {
  return inEnglish(() => {
    const doc = parseDocument(md);
    const ctx = { idPrefix: "m" };
    return [
      ...doc.blocks.flatMap((b) => renderTokens(b.tokens, ctx)),
      ...renderTokens(doc.footnotes, ctx),
    ];
  });
}

const LINK = { rel: "noopener noreferrer", target: "_blank" };

const CASES: readonly { name: string; md: string; want: unknown }[] = [
  {
    name: "headings, paragraphs, emphasis, inline code, links, line breaks",
    md:
      "# Title\n\nSome **bold** and *it* and `x < y` with [a link](https://example.com/a?b=1).\nsecond line",
    want: [
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
        ["a", { href: "https://example.com/a?b=1", ...LINK }, "a link"],
        ".",
        ["br"],
        "second line",
      ],
    ],
  },
  {
    name: "a table with alignments and inline markup in cells",
    md: "| name | n | note |\n| :--- | ---: | :-: |\n| a | 1 | ~~old~~ |\n| `b` | 22 | |",
    want: [["div", { class: "md-table" }, [
      "table",
      ["thead", ["tr", ["th", { class: "md-align-left" }, "name"], [
        "th",
        { class: "md-align-right" },
        "n",
      ], ["th", { class: "md-align-center" }, "note"]]],
      ["tbody", ["tr", ["td", { class: "md-align-left" }, "a"], [
        "td",
        { class: "md-align-right" },
        "1",
      ], ["td", { class: "md-align-center" }, ["del", "old"]]], [
        "tr",
        ["td", { class: "md-align-left" }, ["code", "b"]],
        ["td", { class: "md-align-right" }, "22"],
        ["td", { class: "md-align-center" }],
      ]],
    ]]],
  },
  {
    name: "task lists: checked, unchecked, and a plain item beside them",
    md: "- [ ] todo\n- [x] done **well**\n- [X] also\n- plain [ ] not a box",
    want: [[
      "ul",
      { class: "contains-task-list" },
      [
        "li",
        { class: "task-list-item" },
        ["input", { type: "checkbox", disabled: true, checked: false }],
        " ",
        "todo",
      ],
      [
        "li",
        { class: "task-list-item" },
        ["input", { type: "checkbox", disabled: true, checked: true }],
        " ",
        "done ",
        ["strong", "well"],
      ],
      [
        "li",
        { class: "task-list-item" },
        ["input", { type: "checkbox", disabled: true, checked: true }],
        " ",
        "also",
      ],
      ["li", "plain [ ] not a box"],
    ]],
  },
  {
    name: "a numbered task list keeps its start",
    md: "3. [x] third",
    want: [["ol", { start: 3, class: "contains-task-list" }, [
      "li",
      { class: "task-list-item" },
      ["input", { type: "checkbox", disabled: true, checked: true }],
      " ",
      "third",
    ]]],
  },
  {
    name: "strikethrough",
    md: "~~gone~~ and ~one tilde~",
    want: [["p", ["del", "gone"], " and ~one tilde~"]],
  },
  {
    name: "autolinks: www., scheme URLs, e-mail, <…>; a bare domain stays text",
    md:
      "see www.example.com, https://a.example/x?y=1 and me@example.com or <https://b.example> but not main.rs",
    want: [[
      "p",
      "see ",
      ["a", { href: "http://www.example.com/", ...LINK }, "www.example.com"],
      ", ",
      ["a", { href: "https://a.example/x?y=1", ...LINK }, "https://a.example/x?y=1"],
      " and ",
      ["a", { href: "mailto:me@example.com", ...LINK }, "me@example.com"],
      " or ",
      ["a", { href: "https://b.example/", ...LINK }, "https://b.example"],
      " but not main.rs",
    ]],
  },
  {
    name: "footnotes: numbered references and a section with back links",
    md: "One[^a] and two[^b], one again[^a].\n\n[^a]: First note.\n[^b]: Second *note*.",
    want: [
      [
        "p",
        "One",
        ["sup", { class: "footnote-ref" }, ["a", { href: "#m-fn-1", id: "m-fnref-1" }, "[1]"]],
        " and two",
        ["sup", { class: "footnote-ref" }, ["a", { href: "#m-fn-2", id: "m-fnref-2" }, "[2]"]],
        ", one again",
        ["sup", { class: "footnote-ref" }, ["a", { href: "#m-fn-1", id: "m-fnref-1-1" }, "[1]"]],
        ".",
      ],
      ["section", { class: "md-footnotes", "aria-label": "Footnotes" }, [
        "ol",
        ["li", { id: "m-fn-1" }, [
          "p",
          "First note.",
          " ",
          [
            "a",
            {
              href: "#m-fnref-1",
              class: "footnote-backref",
              "aria-label": "Back to the reference",
            },
            "↩",
          ],
          " ",
          ["a", {
            href: "#m-fnref-1-1",
            class: "footnote-backref",
            "aria-label": "Back to the reference",
          }, "↩"],
        ]],
        ["li", { id: "m-fn-2" }, ["p", "Second ", ["em", "note"], ".", " ", [
          "a",
          { href: "#m-fnref-2", class: "footnote-backref", "aria-label": "Back to the reference" },
          "↩",
        ]]],
      ]],
    ],
  },
  {
    name: "nested lists, loose items and an ordered list's start",
    md: "- one\n- two\n  - nested\n    1. deep\n\n7. seven\n8. eight",
    want: [
      ["ul", ["li", "one"], ["li", "two", ["ul", ["li", "nested", ["ol", ["li", "deep"]]]]]],
      ["ol", { start: 7 }, ["li", "seven"], ["li", "eight"]],
    ],
  },
  {
    name: "blockquotes and rules",
    md: "> quoted **text**\n> more\n\n---",
    want: [["blockquote", ["p", "quoted ", ["strong", "text"], ["br"], "more"]], ["hr"]],
  },
  {
    name: "a fence with a language, one without, and indented code",
    md: "```ts title=a.ts\nconst a = 1 < 2;\n```\n\n```\nplain\n```\n\n    indented",
    want: [
      ["CodeBlock", { info: "ts title=a.ts", code: "const a = 1 < 2;" }],
      ["CodeBlock", { info: "", code: "plain" }],
      ["CodeBlock", { info: "", code: "indented" }],
    ],
  },
  {
    name: "an unclosed fence (streaming) runs to the end",
    md: "```py\nline 1\nline 2",
    want: [["CodeBlock", { info: "py", code: "line 1\nline 2" }]],
  },
  {
    name: "raw HTML is text, never an element",
    md:
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n- <b>bold?</b> <a href="javascript:x">y</a>',
    want: [
      ["p", "<script>alert(1)</script>"],
      ["p", '<img src=x onerror="alert(1)">'],
      ["ul", ["li", '<b>bold?</b> <a href="javascript:x">y</a>']],
    ],
  },
  {
    name: "images never load: a safe one is a link, an unsafe one text",
    md: "![a cat](https://img.example/cat.png) ![x](javascript:alert(1))",
    want: [[
      "p",
      ["a", {
        href: "https://img.example/cat.png",
        ...LINK,
        class: "md-image",
      }, "Image: a cat"],
      " ![x](javascript:alert(1))",
    ]],
  },
];

for (const c of CASES) {
  Deno.test(`markdown: ${c.name}`, () => {
    assert.deepEqual(shape(render(c.md)), c.want, `rendering of:\n${c.md}`);
  });
}

Deno.test("markdown: unsafe link targets never become hrefs", () => {
  const md = [
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert)",
    "[x](data:text/html,hi)",
    "[x](vbscript:msgbox)",
    "[x](file:///etc/passwd)",
    "[x](//evil.example)",
    "[x](/relative)",
    "[x](java\tscript:alert)",
    "<javascript:alert(1)>",
    "[ref]\n\n[ref]: javascript:alert(1)",
    "[ok](mailto:me@example.com)",
  ].join("\n\n");
  const nodes = render(md);
  const anchors = all(nodes).filter((v) => v.type === "a");
  assert.deepEqual(anchors.map((a) => a.props.href), ["mailto:me@example.com"]);
  for (const v of all(nodes)) {
    for (const [name, value] of Object.entries(v.props)) {
      assert.ok(!/^on/i.test(name), `${String(v.type)} has ${name}`);
      assert.ok(
        !(typeof value === "string" && /(javascript|data|vbscript|file):/i.test(value) &&
          name !== "children"),
        `${String(v.type)}.${name} = ${String(value)}`,
      );
    }
  }
});

Deno.test("markdown: only footnote links carry a click handler (they never touch the URL)", () => {
  const nodes = render("A[^1] [b](https://b.example)\n\n[^1]: note");
  const handlers = all(nodes).filter((v) =>
    Object.values(v.props).some((value) => typeof value === "function")
  );
  assert.deepEqual(handlers.map((v) => v.props.href), ["#m-fn-1", "#m-fnref-1"]);
  for (const v of handlers) assert.equal(typeof v.props.onClick, "function", String(v.props.href));
});

Deno.test("markdown: no element outside the walker's list is ever made", () => {
  const md = [
    "# h\n\n## h2\n\n> q\n\n- [x] t\n\n1. o\n\n| a |\n| - |\n| b |\n\n***\n\n",
    "<div>\n<iframe src=https://x></iframe>\n</div>\n\n<style>p{}</style>\n\n",
    "*e* **s** ~~d~~ `c` [l](https://l.example) ![i](https://i.example) x[^1]\n\n[^1]: n\n\n",
    "```\nc\n```\n",
  ].join("");
  const allowed = new Set([
    "h1",
    "h2",
    "blockquote",
    "ul",
    "ol",
    "li",
    "input",
    "div",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "hr",
    "p",
    "em",
    "strong",
    "del",
    "code",
    "a",
    "sup",
    "section",
    "CodeBlock",
    "br",
  ]);
  for (const v of all(render(md))) {
    const type = typeof v.type === "function" ? v.type.name : String(v.type);
    assert.ok(allowed.has(type), `unexpected <${type}>`);
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
  assert.deepEqual(shape(render("`**a**` snake_case_name")), [[
    "p",
    ["code", "**a**"],
    " snake_case_name",
  ]]);
});

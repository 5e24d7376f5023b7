import assert from "node:assert/strict";
import { codeLanguage, GRAMMARS } from "./code_language.ts";
import { highlightCode } from "./highlight.ts";

Deno.test("codeLanguage: fence names, aliases and odd spellings", () => {
  const cases: readonly [string, string | null, string][] = [
    ["", null, "markdown.lang.text"],
    ["text", null, "markdown.lang.text"],
    ["ts", "typescript", "markdown.lang.typescript"],
    ["TSX title=app.tsx", "typescript", "markdown.lang.typescript"],
    ["js", "javascript", "markdown.lang.javascript"],
    ["python3", "python", "markdown.lang.python"],
    ["{.python}", "python", "markdown.lang.python"],
    ["language-rust", "rust", "markdown.lang.rust"],
    ["sh", "bash", "markdown.lang.bash"],
    ["console", "shell", "markdown.lang.shell"],
    ["yml", "yaml", "markdown.lang.yaml"],
    ["html", "xml", "markdown.lang.html"],
    ["svg", "xml", "markdown.lang.xml"],
    ["c++", "cpp", "markdown.lang.cpp"],
    ["h", "c", "markdown.lang.c"],
    ["golang", "go", "markdown.lang.go"],
    ["patch", "diff", "markdown.lang.diff"],
    ["md", "markdown", "markdown.lang.markdown"],
    ["json5", "json", "markdown.lang.json"],
    ["sql", "sql", "markdown.lang.sql"],
    ["java", "java", "markdown.lang.java"],
    ["css", "css", "markdown.lang.css"],
  ];
  for (const [info, grammar, key] of cases) {
    assert.deepEqual(codeLanguage(info), { grammar, label: { key } }, info);
  }
});

Deno.test("codeLanguage: an unknown language keeps its own (short) name and no grammar", () => {
  assert.deepEqual(codeLanguage("haskell"), { grammar: null, label: { text: "haskell" } });
  assert.deepEqual(codeLanguage("constructor"), {
    grammar: null,
    label: { text: "constructor" },
  }, "no prototype key is taken for a language");
  const long = codeLanguage("x".repeat(100));
  assert.deepEqual(long, { grammar: null, label: { text: "x".repeat(24) } });
});

const SAMPLES: Record<(typeof GRAMMARS)[number], string> = {
  javascript: "const a = 1; // one",
  typescript: "let a: number = 1;",
  python: "def f(x):\n    return 'x'",
  bash: "if [ -f x ]; then echo hi; fi",
  shell: "$ ls -la\ntotal 0",
  json: '{"a": [1, true, null]}',
  yaml: "a: 1\nb: [x, y]",
  xml: '<div class="x">&amp;</div>',
  css: "p { color: red; }",
  go: "func main() { fmt.Println(1) }",
  rust: "fn main() { let x: u8 = 1; }",
  java: "public class A { int x = 1; }",
  c: "int main(void) { return 0; }",
  cpp: "#include <vector>\nint main() { return 0; }",
  sql: "SELECT a FROM t WHERE b = 'c';",
  diff: "--- a\n+++ b\n-old\n+new",
  markdown: "# Title\n\n*em*",
};

/** The text of highlighted vnodes. */
function text(nodes: unknown): string {
  if (typeof nodes === "string") return nodes;
  if (Array.isArray(nodes)) return nodes.map(text).join("");
  const props = (nodes as { props: { children?: unknown } }).props;
  return text(props.children ?? "");
}

function classes(nodes: unknown): string[] {
  if (typeof nodes === "string") return [];
  if (Array.isArray(nodes)) return nodes.flatMap(classes);
  const props = (nodes as { type: string; props: { class?: string; children?: unknown } }).props;
  return [...(props.class ? [props.class] : []), ...classes(props.children ?? [])];
}

Deno.test("highlightCode: every registered grammar keeps the text exactly and marks tokens", () => {
  for (const grammar of GRAMMARS) {
    const code = SAMPLES[grammar];
    const nodes = highlightCode(grammar, code);
    assert.equal(text(nodes), code, grammar);
    const found = classes(nodes);
    assert.ok(found.length > 0, `${grammar} marked nothing`);
    // highlight.js scopes ("hljs-title function_") and embedded languages ("bash")
    assert.ok(found.every((c) => /^[\w-]+( [\w-]+)*$/.test(c)), `${grammar}: ${found}`);
    assert.ok(found.some((c) => c.startsWith("hljs-")), `${grammar}: ${found}`);
  }
});

Deno.test("highlightCode: markup in code is text, never an element", () => {
  const code = '<script>alert(1)</script><img src=x onerror="y">';
  const nodes = highlightCode("xml", code);
  assert.equal(text(nodes), code);
  const types = new Set<string>();
  const walk = (n: unknown) => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (n && typeof n === "object") {
      const v = n as { type: string; props: { children?: unknown } };
      types.add(v.type);
      walk(v.props.children);
    }
  };
  walk(nodes);
  assert.deepEqual([...types], ["span"]);
});

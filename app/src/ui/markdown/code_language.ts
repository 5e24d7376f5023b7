/**
 * A fence's info string → the highlight.js grammar to use and the label to show. Only
 * the grammars `highlight.ts` registers are named here; any other language keeps its own
 * name as the label and is shown without highlighting.
 *
 * @module
 */
import type { MessageKey } from "../../i18n/i18n.ts";
import { LANGUAGE_LABEL_MAX_CHARS } from "./limits.ts";

/** The grammars the highlighter registers (highlight.js names). */
export const GRAMMARS = [
  "javascript",
  "typescript",
  "python",
  "bash",
  "shell",
  "json",
  "yaml",
  "xml",
  "css",
  "go",
  "rust",
  "java",
  "c",
  "cpp",
  "sql",
  "diff",
  "markdown",
] as const;

/** A registered grammar. */
export type Grammar = typeof GRAMMARS[number];

interface Known {
  readonly grammar: Grammar | null;
  readonly label: MessageKey;
}

const known = (grammar: Grammar | null, label: MessageKey): Known => ({ grammar, label });

// Lower-cased fence names as models write them → grammar and label.
const ALIASES: Readonly<Record<string, Known>> = {
  "": known(null, "markdown.lang.text"),
  text: known(null, "markdown.lang.text"),
  txt: known(null, "markdown.lang.text"),
  plaintext: known(null, "markdown.lang.text"),
  plain: known(null, "markdown.lang.text"),
  js: known("javascript", "markdown.lang.javascript"),
  javascript: known("javascript", "markdown.lang.javascript"),
  jsx: known("javascript", "markdown.lang.javascript"),
  mjs: known("javascript", "markdown.lang.javascript"),
  cjs: known("javascript", "markdown.lang.javascript"),
  node: known("javascript", "markdown.lang.javascript"),
  ts: known("typescript", "markdown.lang.typescript"),
  typescript: known("typescript", "markdown.lang.typescript"),
  tsx: known("typescript", "markdown.lang.typescript"),
  mts: known("typescript", "markdown.lang.typescript"),
  cts: known("typescript", "markdown.lang.typescript"),
  deno: known("typescript", "markdown.lang.typescript"),
  py: known("python", "markdown.lang.python"),
  python: known("python", "markdown.lang.python"),
  python3: known("python", "markdown.lang.python"),
  sh: known("bash", "markdown.lang.bash"),
  bash: known("bash", "markdown.lang.bash"),
  zsh: known("bash", "markdown.lang.bash"),
  shell: known("bash", "markdown.lang.bash"),
  console: known("shell", "markdown.lang.shell"),
  "shell-session": known("shell", "markdown.lang.shell"),
  shellsession: known("shell", "markdown.lang.shell"),
  json: known("json", "markdown.lang.json"),
  jsonc: known("json", "markdown.lang.json"),
  json5: known("json", "markdown.lang.json"),
  yaml: known("yaml", "markdown.lang.yaml"),
  yml: known("yaml", "markdown.lang.yaml"),
  html: known("xml", "markdown.lang.html"),
  htm: known("xml", "markdown.lang.html"),
  xhtml: known("xml", "markdown.lang.html"),
  xml: known("xml", "markdown.lang.xml"),
  svg: known("xml", "markdown.lang.xml"),
  css: known("css", "markdown.lang.css"),
  go: known("go", "markdown.lang.go"),
  golang: known("go", "markdown.lang.go"),
  rust: known("rust", "markdown.lang.rust"),
  rs: known("rust", "markdown.lang.rust"),
  java: known("java", "markdown.lang.java"),
  c: known("c", "markdown.lang.c"),
  h: known("c", "markdown.lang.c"),
  cpp: known("cpp", "markdown.lang.cpp"),
  "c++": known("cpp", "markdown.lang.cpp"),
  cc: known("cpp", "markdown.lang.cpp"),
  cxx: known("cpp", "markdown.lang.cpp"),
  hpp: known("cpp", "markdown.lang.cpp"),
  sql: known("sql", "markdown.lang.sql"),
  diff: known("diff", "markdown.lang.diff"),
  patch: known("diff", "markdown.lang.diff"),
  md: known("markdown", "markdown.lang.markdown"),
  markdown: known("markdown", "markdown.lang.markdown"),
};

/** What a code block shows about its language. */
export interface CodeLanguage {
  /** The grammar to highlight with, or null for none. */
  readonly grammar: Grammar | null;
  /** The label: a string key, or the fence's own word when the language is unknown. */
  readonly label: { readonly key: MessageKey } | { readonly text: string };
}

/**
 * Reads a fence's info string (its first word is the language, as in CommonMark).
 *
 * @param info the text after the opening fence, e.g. "ts title=a.ts"
 * @returns the grammar and label
 */
export function codeLanguage(info: string): CodeLanguage {
  const word = info.trim().split(/\s+/, 1)[0] ?? "";
  // "{.python}" and "language-python" are other ways of naming it.
  const name = word.replace(/^\{?\.?|\}$/g, "").replace(/^language-/i, "").toLowerCase();
  const found = Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
  if (found) return { grammar: found.grammar, label: { key: found.label } };
  return {
    grammar: null,
    label: { text: [...word].slice(0, LANGUAGE_LABEL_MAX_CHARS).join("") },
  };
}

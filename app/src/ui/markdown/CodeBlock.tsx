import { signal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import { CopyButton } from "../CopyButton.tsx";
import { codeLanguage } from "./code_language.ts";
import { HIGHLIGHT_MAX_CHARS } from "./limits.ts";

type Highlighter = typeof import("./highlight_chunk.ts");

/** The highlighter once its chunk has arrived; code blocks re-render then. */
const highlighter = signal<Highlighter | null>(null);
let loading: Promise<void> | null = null;

function loadHighlighter(): void {
  loading ??= import("./highlight_chunk.ts").then(
    (module) => void (highlighter.value = module),
    (error) => {
      loading = null; // offline mid-deploy: the next code block tries again
      console.error(error);
    },
  );
}

/**
 * A fenced or indented code block: a header bar with the language and Copy (its own row,
 * so it never covers code), then the code — plain at first, highlighted once the lazily
 * loaded highlighter is there (blocks over `HIGHLIGHT_MAX_CHARS` stay plain).
 *
 * @param props.info the fence's info string ("" for none)
 * @param props.code the code as written
 */
export function CodeBlock(props: { info: string; code: string }) {
  const { code } = props;
  const language = useMemo(() => codeLanguage(props.info), [props.info]);
  const wanted = language.grammar !== null && code.length <= HIGHLIGHT_MAX_CHARS;
  const loaded = highlighter.value;
  useEffect(() => {
    if (wanted && !loaded) loadHighlighter();
  }, [wanted, loaded]);
  const body = useMemo(() => {
    if (!wanted || !loaded || language.grammar === null) return code;
    try {
      return loaded.highlightCode(language.grammar, code);
    } catch (error) {
      console.error(error); // a grammar bug: the code is still shown, plain
      return code;
    }
  }, [wanted, loaded, language.grammar, code]);
  const label = "key" in language.label ? t(language.label.key) : language.label.text;
  return (
    <div class="code-block" role="group" aria-label={t("markdown.codeLabel", { language: label })}>
      <div class="code-head">
        <span class="code-lang">{label}</span>
        <CopyButton text={code} label={t("markdown.copyCode")} class="copy-code" />
      </div>
      <pre><code class={language.grammar ? `hljs language-${language.grammar}` : undefined}>{body}</code></pre>
    </div>
  );
}

import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import "./code_block.css";

/** How long "Copied" shows before the button reads "Copy" again. */
const COPIED_MS = 2000;

/**
 * A fenced code block with a Copy button (the text as written, via the Clipboard API;
 * loopback pages are a secure context, so it is available).
 *
 * @param props.pre the rendered `<pre><code>` block
 * @param props.code its text
 */
export function CodeBlock(props: { pre: VNode; code: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div class="code-block">
      <button
        type="button"
        class="copy-code"
        aria-label={copied ? t("markdown.copied") : t("markdown.copyCode")}
        onClick={() =>
          void navigator.clipboard?.writeText(props.code).then(() => setCopied(true), () => {})}
      >
        {copied ? t("markdown.copied") : t("markdown.copy")}
      </button>
      {props.pre}
    </div>
  );
}

import type { VNode } from "preact";
import { t } from "../../i18n/i18n.ts";
import { CopyButton } from "../CopyButton.tsx";
import "./code_block.css";

/**
 * A fenced code block with a Copy button for its text as written.
 *
 * @param props.pre the rendered `<pre><code>` block
 * @param props.code its text
 */
export function CodeBlock(props: { pre: VNode; code: string }) {
  return (
    <div class="code-block">
      <CopyButton text={props.code} label={t("markdown.copyCode")} class="copy-code" />
      {props.pre}
    </div>
  );
}

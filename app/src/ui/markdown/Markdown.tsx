import { useMemo } from "preact/hooks";
import type { VNode } from "preact";
import { renderMarkdown } from "./blocks.ts";
import { CodeBlock } from "./CodeBlock.tsx";

/** The text of a `<pre><code>` block as `renderMarkdown` builds it. */
function codeText(pre: VNode): string | null {
  const code = (pre.props as { children?: unknown }).children as VNode | undefined;
  const text = (code?.props as { children?: unknown } | undefined)?.children;
  return typeof text === "string" ? text : null;
}

/**
 * Assistant text rendered as safe Markdown (vnodes only, never innerHTML); fenced code
 * blocks get a Copy button.
 *
 * @param props.text the Markdown source
 */
export function Markdown(props: { text: string }) {
  const blocks = useMemo(
    () =>
      renderMarkdown(props.text).map((block, index) => {
        if (block.type !== "pre") return block;
        const code = codeText(block);
        return code === null ? block : <CodeBlock key={index} pre={block} code={code} />;
      }),
    [props.text],
  );
  return <div class="markdown">{blocks}</div>;
}

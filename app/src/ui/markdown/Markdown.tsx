import { useMemo } from "preact/hooks";
import { renderMarkdown } from "./blocks.ts";

/**
 * Assistant text rendered as safe Markdown (vnodes only, never innerHTML).
 *
 * @param props.text the Markdown source
 */
export function Markdown(props: { text: string }) {
  const blocks = useMemo(() => renderMarkdown(props.text), [props.text]);
  return <div class="markdown">{blocks}</div>;
}

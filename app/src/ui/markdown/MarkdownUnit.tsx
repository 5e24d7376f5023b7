import { memo } from "preact/compat";
import { useMemo, useRef } from "preact/hooks";
import { type Block, type ParsedDocument, parseDocument } from "./document.ts";
import type { Token } from "./parser.ts";
import { renderTokens, type WalkContext } from "./walker.ts";

interface BlockProps {
  tokens: readonly Token[];
  source: string;
  definitions: string;
  ctx: WalkContext;
}

/** One top-level block; it renders again only when its source or the definitions change. */
const BlockView = memo(
  (props: BlockProps) => <>{renderTokens(props.tokens, props.ctx)}</>,
  (before: BlockProps, after: BlockProps) =>
    before.source === after.source && before.definitions === after.definitions &&
    before.ctx.idPrefix === after.ctx.idPrefix,
);

function blockViews(blocks: readonly Block[], doc: ParsedDocument, ctx: WalkContext) {
  return blocks.map((block, index) => (
    <BlockView
      key={index}
      tokens={block.tokens}
      source={block.source}
      definitions={doc.definitions}
      ctx={ctx}
    />
  ));
}

interface UnitProps {
  /** The Markdown of this unit (a whole answer, or one piece of a long one). */
  text: string;
  /** Unique per unit: footnote ids are made from it. */
  idPrefix: string;
}

/**
 * A Markdown text parsed as one document and rendered as its blocks (no wrapper: the
 * blocks are children of the answer's `.markdown`). While the text grows, only its last
 * block is parsed and rendered again.
 */
function MarkdownUnitInner(props: UnitProps) {
  const previous = useRef<ParsedDocument | null>(null);
  const doc = useMemo(() => (previous.current = parseDocument(props.text, previous.current)), [
    props.text,
  ]);
  const ctx = useMemo<WalkContext>(() => ({ idPrefix: props.idPrefix }), [props.idPrefix]);
  return (
    <>
      {blockViews(doc.blocks, doc, ctx)}
      {doc.footnotes.length > 0 && renderTokens(doc.footnotes, ctx)}
    </>
  );
}

/** {@linkcode MarkdownUnitInner}, skipped when its text did not change. */
export const MarkdownUnit = memo(
  MarkdownUnitInner,
  (before: UnitProps, after: UnitProps) =>
    before.text === after.text && before.idPrefix === after.idPrefix,
);

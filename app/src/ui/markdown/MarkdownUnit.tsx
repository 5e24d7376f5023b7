import { memo } from "preact/compat";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { PARSE_CHARS_PER_TASK, RENDER_CHARS_PER_TASK } from "./limits.ts";
import { pieceEnd } from "./pieces.ts";
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

/** Runs `step` in a later task while `pending` (each render schedules the next). */
function useLater(pending: boolean, step: () => void, deps: readonly unknown[]): void {
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(step, 0);
    return () => clearTimeout(timer);
  }, [pending, ...deps]);
}

/**
 * Parses `text` as one document, incrementally: what an earlier render parsed is kept,
 * and at most `PARSE_CHARS_PER_TASK` of new text is parsed per task (cut at a line end),
 * the rest in the following tasks.
 */
function useParsed(text: string): ParsedDocument {
  const previous = useRef<ParsedDocument | null>(null);
  const [tick, setTick] = useState(0);
  const doc = useMemo(() => {
    const before = previous.current;
    const from = before && text.startsWith(before.text) ? before.text.length : 0;
    const end = pieceEnd(text, from, PARSE_CHARS_PER_TASK);
    return (previous.current = parseDocument(
      end === text.length ? text : text.slice(0, end),
      before,
    ));
  }, [text, tick]);
  useLater(doc.text.length < text.length, () => setTick((n) => n + 1), [doc]);
  return doc;
}

/**
 * How many of `blocks` to render: those shown before, plus new ones up to
 * `RENDER_CHARS_PER_TASK` of source (at least one); the rest follow in later tasks.
 * A streaming answer's new blocks are small and show at once.
 */
function useRevealed(blocks: readonly Block[]): number {
  const shown = useRef(0);
  const [, setTick] = useState(0);
  let count = Math.min(shown.current, blocks.length);
  let spent = 0;
  while (count < blocks.length) {
    const size = blocks[count]!.source.length;
    if (spent > 0 && spent + size > RENDER_CHARS_PER_TASK) break;
    spent += size;
    count++;
  }
  shown.current = count;
  useLater(count < blocks.length, () => setTick((n) => n + 1), [count, blocks.length]);
  return count;
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
 * block is parsed and rendered again; much new text at once is parsed and put on the page
 * a bounded amount per task.
 */
function MarkdownUnitInner(props: UnitProps) {
  const doc = useParsed(props.text);
  const ctx = useMemo<WalkContext>(() => ({ idPrefix: props.idPrefix }), [props.idPrefix]);
  const count = useRevealed(doc.blocks);
  const all = count === doc.blocks.length;
  return (
    <>
      {blockViews(all ? doc.blocks : doc.blocks.slice(0, count), doc, ctx)}
      {all && doc.footnotes.length > 0 && renderTokens(doc.footnotes, ctx)}
    </>
  );
}

/** {@linkcode MarkdownUnitInner}, skipped when its text did not change. */
export const MarkdownUnit = memo(
  MarkdownUnitInner,
  (before: UnitProps, after: UnitProps) =>
    before.text === after.text && before.idPrefix === after.idPrefix,
);

import type { VNode } from "preact";
import { useId, useMemo, useRef, useState } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import { formatBytes } from "../../state/attachment_rules.ts";
import { COLLAPSE_CHARS, PIECE_CHARS } from "./limits.ts";
import { MarkdownUnit } from "./MarkdownUnit.tsx";
import { PieceSlot } from "./PieceSlot.tsx";
import { type Piece, type Pieces, pieceSource, splitPieces } from "./pieces.ts";
// The CSS of code blocks, here rather than in CodeBlock.tsx: unit tests import that one.
import "./code_block.css";
import "./markdown.css";

const SIZES = { first: COLLAPSE_CHARS, rest: PIECE_CHARS };

/**
 * Assistant text rendered as GitHub-flavoured Markdown (vnodes only, never innerHTML),
 * incrementally while it streams. An answer longer than `COLLAPSE_CHARS` shows its start
 * and "Show all"; the rest is then cut into `PIECE_CHARS` pieces, each parsed and put on
 * the page only near the viewport (`PieceSlot`), so a 5 MB answer never holds the page
 * for long.
 *
 * @param props.text the Markdown source
 * @param props.streaming whether it is still streaming
 */
export function RichMarkdown(props: { text: string; streaming?: boolean }) {
  const id = useId();
  const previous = useRef<Pieces | null>(null);
  const { pieces } = useMemo(
    () => (previous.current = splitPieces(props.text, SIZES, previous.current)),
    [props.text],
  );
  const views = useRef(new WeakMap<Piece, VNode>());
  const [expanded, setExpanded] = useState(false);
  const visible = expanded ? pieces : pieces.slice(0, 1);
  const hidden = props.text.length - (visible.at(-1)?.end ?? 0);
  // The last block draws the caret (feed.css) when the answer is one piece; else the
  // feed's own caret follows the answer.
  const caret = props.streaming && pieces.length === 1;
  return (
    <>
      <div class={caret ? "markdown streaming" : "markdown"}>
        {visible.map((piece, index) => {
          // A kept piece is the same object, so its vnode is reused and Preact skips it
          // without diffing (a 5 MB answer has ~640 pieces; a delta changes the last one).
          let view = views.current.get(piece);
          if (!view) {
            const unit = (
              <MarkdownUnit
                key={index}
                text={pieceSource(props.text, piece)}
                idPrefix={`${id}-${index}`}
              />
            );
            // The pieces after the start are on the page only near the viewport.
            view = index === 0 ? unit : <PieceSlot key={index}>{unit}</PieceSlot>;
            views.current.set(piece, view);
          }
          return view;
        })}
      </div>
      {!expanded && pieces.length > 1 && (
        <button
          type="button"
          class="md-show-all"
          onClick={() => setExpanded(true)}
        >
          {t("markdown.showAll", { size: formatBytes(hidden) })}
        </button>
      )}
    </>
  );
}

import { useEffect, useId, useMemo, useRef, useState } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import { formatBytes } from "../../state/attachment_rules.ts";
import { COLLAPSE_CHARS, PIECE_CHARS } from "./limits.ts";
import { MarkdownUnit } from "./MarkdownUnit.tsx";
import { type Pieces, pieceSource, splitPieces } from "./pieces.ts";
// The CSS of code blocks, here rather than in CodeBlock.tsx: unit tests import that one.
import "./code_block.css";
import "./markdown.css";

const SIZES = { first: COLLAPSE_CHARS, rest: PIECE_CHARS };

/**
 * Assistant text rendered as GitHub-flavoured Markdown (vnodes only, never innerHTML),
 * incrementally while it streams. An answer longer than `COLLAPSE_CHARS` shows its start
 * and "Show all"; the rest then appears one piece per task, so a 5 MB answer never holds
 * the page for long.
 *
 * @param props.text the Markdown source
 */
export function RichMarkdown(props: { text: string }) {
  const id = useId();
  const previous = useRef<Pieces | null>(null);
  const { pieces } = useMemo(
    () => (previous.current = splitPieces(props.text, SIZES, previous.current)),
    [props.text],
  );
  const [expanded, setExpanded] = useState(false);
  const [shown, setShown] = useState(1);
  // One more piece per task (Preact runs effects after the browser painted).
  useEffect(() => {
    if (!expanded || shown >= pieces.length) return;
    const timer = setTimeout(() => setShown((n) => n + 1), 0);
    return () => clearTimeout(timer);
  }, [expanded, shown, pieces.length]);
  const visible = expanded ? pieces.slice(0, shown) : pieces.slice(0, 1);
  const hidden = props.text.length - (visible.at(-1)?.end ?? 0);
  return (
    <>
      <div class="markdown">
        {visible.map((piece, index) => (
          <MarkdownUnit
            key={index}
            text={pieceSource(props.text, piece)}
            idPrefix={`${id}-${index}`}
          />
        ))}
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
      {expanded && shown < pieces.length && (
        <p class="md-showing-all" role="status">{t("markdown.showingAll")}</p>
      )}
    </>
  );
}

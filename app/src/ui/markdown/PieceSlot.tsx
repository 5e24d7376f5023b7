import type { VNode } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { PIECE_NEAR_PX } from "./limits.ts";

/**
 * One piece of a huge answer after "Show all": its content is on the page only while it
 * is within `PIECE_NEAR_PX` of the feed's viewport; otherwise an empty box of the height
 * it last had (or a guess) stands in. So a 5 MB answer keeps a few pieces' elements, and
 * neither style, layout nor garbage collection ever walks all of it.
 *
 * @param props.children the piece's rendered Markdown
 */
export function PieceSlot(props: { children: VNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const height = useRef<number | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    // The feed scrolls, not the window: the margin must apply to the feed's scroller
    // (elsewhere, the window's viewport).
    const root = box.closest<HTMLElement>(".feed-scroller");
    const observer = new IntersectionObserver((entries) => {
      const entry = entries.at(-1)!;
      if (!entry.isIntersecting) height.current = entry.boundingClientRect.height;
      setNear(entry.isIntersecting);
    }, { root, rootMargin: `${PIECE_NEAR_PX}px 0px` });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  useLayoutEffect(() => {
    // Set through the style object: the CSP allows no style attributes.
    const box = ref.current;
    if (box) box.style.height = near || height.current === null ? "" : `${height.current}px`;
  }, [near]);
  return (
    <div ref={ref} class={near ? "md-piece" : "md-piece md-piece-away"}>
      {near ? props.children : null}
    </div>
  );
}

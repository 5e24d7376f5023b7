import type { RefObject } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import type { FeedRow, TurnEntry } from "./feed_rows.ts";
import {
  adjacentTurn,
  type Anchor,
  anchorAt,
  covers,
  isAtBottom,
  rangeAround,
  rowOffsets,
  type RowRange,
  unseenCount,
} from "./feed_window.ts";
import { turnStep } from "./turn_keys.ts";
import { FeedRowView } from "./FeedRowView.tsx";
import "./feed.css";
// The approval cards live in feed rows; their styles come with the feed.
import "../approvals/approvals.css";
// So do the tool rows and the usage line under an answer.
import "../tools/tools.css";

/**
 * Px of rows rendered beyond each edge of the viewport. The frame-time benchmark
 * (`tests/bench/feed_frames_bench.ts`) sets `globalThis.DAEDALUS_FEED_OVERSCAN_PX` before
 * the app loads to render every row: the same feed without virtualization, its baseline.
 */
const OVERSCAN_PX = benchOverscan() ?? 800;

function benchOverscan(): number | null {
  const value: unknown = Reflect.get(globalThis, "DAEDALUS_FEED_OVERSCAN_PX");
  return typeof value === "number" && value > 0 ? value : null;
}
/** Within this many px of the bottom the feed counts as "at the bottom" and follows. */
const BOTTOM_SLACK_PX = 24;
/** Within this many px of the top, scrolling up loads the previous page of turns. */
const LOAD_OLDER_WITHIN_PX = 600;
/** Re-renders in a row that may chase a window that still does not cover the viewport. */
const MAX_SETTLE_RENDERS = 3;

/** What the navigator can ask of the feed. */
export interface FeedHandle {
  /** Scrolls a row to the top and focuses it; `flash` also marks it briefly (a search hit). */
  jumpTo(rowKey: string, options?: { flash?: boolean }): void;
  /**
   * Moves to the previous or next turn from the viewport's top.
   *
   * @returns the turn moved to, or null when there is none that way
   */
  step(direction: 1 | -1): string | null;
}

interface FeedProps {
  rows: readonly FeedRow[];
  /** The turns, for Alt+ArrowUp/Down. */
  turns: readonly TurnEntry[];
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** Told when a keyboard step moved to a turn. */
  onTurn: (turnId: string) => void;
  /** A Run of the thread is queued or running: new rows may arrive below. */
  streaming: boolean;
  handle: RefObject<FeedHandle | null>;
}

/** The feed's scroll bookkeeping, kept outside render state: it changes every frame. */
interface View {
  props: FeedProps;
  offsets: Float64Array;
  range: RowRange;
  /** The list's top inside the scroller (the Load earlier button sits above it). */
  base: number;
  viewport: number;
  /** Following the bottom while new content arrives. */
  pinned: boolean;
  /** The row kept in place while not pinned. */
  anchor: Anchor | null;
  /** The last item's key when the user was last at the bottom. */
  lastSeen: string | null;
  detached: boolean;
  /** The last turn's ordinal when the feed last rendered: a later one is a sent message. */
  lastOrdinal: number;
  focusKey: string | null;
  /** Whether the row being focused also flashes. */
  flash: boolean;
  settleRenders: number;
}

/** Rows of what was said and done (messages, tool steps), which "new items" counts. */
function isContentRow(row: FeedRow): boolean {
  return row.kind === "item" || row.kind === "tools";
}

/** The last content row's key: "new items" are counted after it (a Run's end row comes and goes). */
function lastItemKey(rows: readonly FeedRow[]): string | null {
  return rows.findLast(isContentRow)?.key ?? null;
}

/** How long a flashed row keeps its mark: the animation's length (feed.css) and a little. */
const FLASH_MS = 2_000;

/**
 * Marks a row for one flash animation (feed.css `.flash`), restarted if it was running. The
 * mark goes after {@linkcode FLASH_MS} (reduced motion runs no animation to end).
 */
function flashRow(row: HTMLElement): void {
  row.classList.remove("flash");
  void row.offsetWidth;
  row.classList.add("flash");
  setTimeout(() => row.classList.remove("flash"), FLASH_MS);
}

function indexOfKey(rows: readonly FeedRow[], key: string, hint: number): number {
  if (rows[hint]?.key === key) return hint;
  return rows.findIndex((row) => row.key === key);
}

/**
 * The virtualized conversation feed: only the rows near the viewport are in the DOM,
 * between two spacers sized from measured heights (estimates for rows never rendered).
 * It follows the bottom while content streams in unless the user scrolled up (then,
 * while a Run streams or once new rows came, "Jump to latest" counts the new rows); a
 * new turn at the end (a message sent) brings the user back to the bottom. It keeps the
 * row at the viewport's top in place when older turns are prepended or rows above it
 * change height.
 */
export function Feed(props: FeedProps) {
  const { rows } = props;
  const scroller = useRef<HTMLElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>()).current;
  const observer = useRef<ResizeObserver | null>(null);
  // observe() again on an observed element restarts it and reports it once more, which
  // would call settle every frame; so each row element is observed once
  const observed = useRef(new Set<Element>()).current;
  const [, setRenders] = useState(0);
  const rerender = () => setRenders((n) => n + 1);
  const [detached, setDetached] = useState(false);
  const viewRef = useRef<View | null>(null);
  const offsets = rowOffsets(rows, heights);
  const view: View = viewRef.current ??= {
    props,
    offsets,
    range: { start: 0, end: 0 },
    base: 0,
    viewport: 800,
    pinned: true,
    anchor: null,
    lastSeen: null,
    detached: false,
    lastOrdinal: props.turns.at(-1)?.ordinal ?? 0,
    focusKey: null,
    flash: false,
    settleRenders: 0,
  };
  view.props = props;
  view.offsets = offsets;
  const lastTurn = props.turns.at(-1);
  if (lastTurn && lastTurn.ordinal > view.lastOrdinal) {
    view.lastOrdinal = lastTurn.ordinal;
    // A new turn at the end is a message just sent (here or in another tab): the user is
    // taken to it wherever they had scrolled, and the feed follows its answer from there.
    view.pinned = true;
    view.anchor = null;
  }
  const total = offsets[rows.length]!;

  // Where the viewport will be once the layout effect has restored the scroll position.
  const lowest = Math.max(0, total - view.viewport);
  let top = scroller.current ? scroller.current.scrollTop - view.base : lowest;
  if (view.pinned) top = lowest;
  else if (view.anchor) {
    const at = indexOfKey(rows, view.anchor.key, view.range.start);
    if (at !== -1) top = Math.min(lowest, Math.max(0, offsets[at]! + view.anchor.delta));
  }
  const range = rangeAround(offsets, top, view.viewport, OVERSCAN_PX);
  view.range = range;

  const setDetachedOnce = (value: boolean) => {
    if (view.detached === value) return;
    view.detached = value;
    setDetached(value);
  };

  /** Measures the rendered rows, then restores the bottom or the anchor. */
  const settle = () => {
    const el = scroller.current;
    const listEl = list.current;
    if (!el || !listEl) return;
    if (view.pinned) setDetachedOnce(false);
    view.base = listEl.offsetTop;
    view.viewport = el.clientHeight;
    let changed = false;
    for (const child of Array.from(listEl.children)) {
      if (!(child instanceof HTMLElement) || !child.dataset.key) continue;
      const height = child.getBoundingClientRect().height;
      if (Math.abs((heights.get(child.dataset.key) ?? -1) - height) > 0.5) {
        heights.set(child.dataset.key, height);
        changed = true;
      }
      if (observer.current && !observed.has(child)) {
        observer.current.observe(child);
        observed.add(child);
      }
    }
    for (const element of observed) {
      if (element.isConnected) continue;
      observer.current?.unobserve(element);
      observed.delete(element);
    }
    const current = view.props.rows;
    if (changed) view.offsets = rowOffsets(current, heights);
    if (view.pinned) {
      const bottom = el.scrollHeight - el.clientHeight;
      if (Math.abs(el.scrollTop - bottom) >= 1) el.scrollTop = bottom;
      view.lastSeen = lastItemKey(current);
    } else if (view.anchor) {
      const at = indexOfKey(current, view.anchor.key, view.range.start);
      if (at !== -1) {
        const target = view.base + view.offsets[at]! + view.anchor.delta;
        if (Math.abs(el.scrollTop - target) >= 1) el.scrollTop = target;
      }
    }
    if (view.focusKey) {
      const target = listEl.querySelector(`[data-key="${CSS.escape(view.focusKey)}"]`);
      if (target instanceof HTMLElement) {
        target.focus({ preventScroll: true });
        if (view.flash) flashRow(target);
      }
      view.focusKey = null;
      view.flash = false;
    }
    const shown = el.scrollTop - view.base;
    if (covers(view.offsets, view.range, shown, view.viewport)) view.settleRenders = 0;
    else if (view.settleRenders++ < MAX_SETTLE_RENDERS) rerender();
  };

  useLayoutEffect(settle);

  useEffect(() => {
    // Rows whose height changes between renders (fonts, wrapping after a resize, a
    // process log opening) and the scroller itself.
    const resize = new ResizeObserver(() => settle());
    observer.current = resize;
    if (scroller.current) resize.observe(scroller.current);
    settle();
    return () => resize.disconnect();
  }, []);

  /** The user moves up: stop following the bottom before the scroll lands. */
  const unpin = () => {
    const el = scroller.current;
    if (!el || !view.pinned) return;
    view.pinned = false;
    view.anchor = anchorAt(view.offsets, view.props.rows, el.scrollTop - view.base);
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const shown = el.scrollTop - view.base;
    const current = view.props.rows;
    view.pinned = isAtBottom(el.scrollTop, el.clientHeight, el.scrollHeight, BOTTOM_SLACK_PX);
    view.anchor = view.pinned ? null : anchorAt(view.offsets, current, shown);
    if (view.pinned) view.lastSeen = lastItemKey(current);
    setDetachedOnce(!view.pinned);
    if (!covers(view.offsets, view.range, shown, el.clientHeight)) rerender();
    const { hasOlder, loadingOlder, onLoadOlder } = view.props;
    if (hasOlder && !loadingOlder && !view.pinned && el.scrollTop < LOAD_OLDER_WITHIN_PX) {
      onLoadOlder();
    }
  };

  const jumpTo = (rowKey: string, options: { flash?: boolean } = {}) => {
    view.pinned = false;
    view.anchor = { key: rowKey, delta: 0 };
    view.focusKey = rowKey;
    view.flash = options.flash === true;
    setDetachedOnce(true);
    rerender();
  };

  const step = (direction: 1 | -1): string | null => {
    const el = scroller.current;
    if (!el) return null;
    const index = new Map(view.props.rows.map((row, i) => [row.key, i]));
    const turns = view.props.turns.filter((turn) => index.has(turn.rowKey));
    const tops = turns.map((turn) => view.offsets[index.get(turn.rowKey)!]!);
    const target = adjacentTurn(tops, el.scrollTop - view.base, direction);
    if (target === null) return null;
    const turn = turns[target]!;
    jumpTo(turn.rowKey);
    return turn.turnId;
  };
  props.handle.current = { jumpTo, step };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const direction = turnStep(event);
      if (direction === null) return;
      // text fields keep Alt+arrows (caret movement by paragraph on macOS)
      const target = event.target;
      if (target instanceof HTMLElement && target.closest("textarea, input, select")) return;
      event.preventDefault();
      const turnId = view.props.handle.current?.step(direction);
      if (turnId) view.props.onTurn(turnId);
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  const jumpToLatest = () => {
    view.pinned = true;
    view.anchor = null;
    setDetachedOnce(false);
    rerender();
    scroller.current?.focus({ preventScroll: true });
  };

  const size = props.hasOlder ? -1 : rows.length;
  const unseen = detached
    ? unseenCount(rows.filter(isContentRow).map((row) => row.key), view.lastSeen)
    : 0;
  // Scrolled up in a settled thread the user is reading: no button. It shows while a Run
  // may still add rows below, or once rows arrived that the user has not seen.
  const offerJump = detached && (props.streaming || unseen > 0);
  return (
    <>
      <section
        class="conversation feed-scroller"
        ref={scroller}
        aria-label={t("conversation.label")}
        tabIndex={0}
        onScroll={onScroll}
        onWheel={(event) => event.deltaY < 0 && unpin()}
        onTouchMove={unpin}
        onKeyDown={(event) => {
          if (["ArrowUp", "PageUp", "Home"].includes(event.key)) unpin();
        }}
        onPointerDown={(event) => event.target === scroller.current && unpin()}
      >
        {props.hasOlder && (
          <button
            type="button"
            class="load-older"
            disabled={props.loadingOlder}
            onClick={props.onLoadOlder}
          >
            {props.loadingOlder ? t("feed.loadingOlder") : t("feed.loadOlder")}
          </button>
        )}
        <div
          role="feed"
          class="feed"
          ref={list}
          aria-label={t("feed.label")}
          aria-busy={props.loadingOlder}
        >
          <div class="feed-spacer" style={{ height: `${offsets[range.start]}px` }} />
          {rows.slice(range.start, range.end).map((row, i) => (
            <FeedRowView key={row.key} row={row} position={range.start + i + 1} size={size} />
          ))}
          <div class="feed-spacer" style={{ height: `${total - offsets[range.end]!}px` }} />
        </div>
      </section>
      {offerJump && (
        <button type="button" class="jump-latest" onClick={jumpToLatest}>
          {unseen > 0 ? t("feed.jumpLatestCount", { count: unseen }) : t("feed.jumpLatest")}
        </button>
      )}
    </>
  );
}

import { memo } from "preact/compat";
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../../i18n/i18n.ts";
import { sameEntries, type TurnEntry } from "./feed_rows.ts";
import { isImeComposing, listKeyIndex } from "./turn_keys.ts";
import { railCollapsed, setRailCollapsed } from "../../state/turn_rail.ts";

interface NavigatorProps {
  entries: readonly TurnEntry[];
  /** The turn last jumped to, which becomes the active option. */
  current: string | null;
  onJump: (entry: TurnEntry) => void;
}

/**
 * The thread's turns as a listbox of the user's messages: arrows, Home and End move the
 * active option, Enter (or a click) jumps the feed to that turn. The feed's own
 * Alt+ArrowUp/Alt+ArrowDown move turn by turn from anywhere in the conversation.
 *
 * Where the conversation is wide enough, feed.css docks it as a rail of fixed width beside
 * the feed (entries cut by an ellipsis), which its own button collapses to a narrow strip;
 * narrower, it is a "Turns" button in a bar above the feed that opens the list over it.
 */
function TurnNavigatorInner(props: NavigatorProps) {
  const { entries } = props;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(Math.max(0, entries.length - 1));
  const listbox = useRef<HTMLUListElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const at = entries.findIndex((entry) => entry.turnId === props.current);
    if (at !== -1) setActive(at);
  }, [props.current]);
  useEffect(() => {
    if (active >= entries.length) setActive(Math.max(0, entries.length - 1));
  }, [entries.length]);
  useEffect(() => {
    listbox.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({
      block: "nearest",
    });
  }, [active, open]);

  if (entries.length === 0) return null;
  const optionId = (index: number) => `turn-nav-option-${index}`;
  const jump = (index: number) => {
    const entry = entries[index];
    if (!entry) return;
    setActive(index);
    // below the rail's breakpoint the list is an overlay: it gets out of the way
    setOpen(false);
    props.onJump(entry);
  };
  const collapsed = railCollapsed.value;
  return (
    <nav
      // one turn: nothing to navigate, and on a narrow screen no bar for it either
      class={`turn-nav${open ? " open" : ""}${collapsed ? " rail-collapsed" : ""}${
        entries.length === 1 ? " single" : ""
      }`}
      aria-label={t("turnNav.label")}
    >
      <button
        type="button"
        class="turn-rail-toggle"
        aria-expanded={!collapsed}
        aria-controls="turn-nav-list"
        aria-label={collapsed ? t("turnNav.show") : t("turnNav.hide")}
        title={collapsed ? t("turnNav.show") : t("turnNav.hide")}
        onClick={() => setRailCollapsed(!collapsed)}
      >
        <span aria-hidden="true">{collapsed ? "‹" : "›"}</span>
        {!collapsed && <span class="turn-rail-title">{t("turnNav.list")}</span>}
      </button>
      <button
        ref={toggle}
        type="button"
        class="turn-nav-toggle"
        aria-expanded={open}
        aria-controls="turn-nav-list"
        title={t("turnNav.keys")}
        onClick={() => setOpen(!open)}
      >
        {t("turnNav.toggle", { count: entries.length })}
      </button>
      <ul
        ref={listbox}
        id="turn-nav-list"
        role="listbox"
        tabIndex={0}
        aria-label={t("turnNav.list")}
        aria-activedescendant={optionId(active)}
        title={t("turnNav.keys")}
        onKeyDown={(event) => {
          if (event.key === "Escape" && open && !isImeComposing(event)) {
            setOpen(false);
            toggle.current?.focus();
            return;
          }
          if (event.key === "Enter" && !isImeComposing(event)) {
            event.preventDefault();
            jump(active);
            return;
          }
          const next = listKeyIndex(event, active, entries.length);
          if (next === null) return;
          event.preventDefault();
          setActive(next);
        }}
      >
        {entries.map((entry, index) => (
          <li
            key={entry.turnId}
            id={optionId(index)}
            data-index={index}
            role="option"
            aria-selected={index === active}
            class={index === active ? "active" : undefined}
            onClick={() => jump(index)}
          >
            <span class="turn-ordinal">{entry.ordinal}</span>
            <span class="turn-label">{entry.label || t("turnNav.noText")}</span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Re-renders only when the list of turns or the current turn changed. */
export const TurnNavigator = memo(
  TurnNavigatorInner,
  (before: NavigatorProps, after: NavigatorProps) =>
    sameEntries(before.entries, after.entries) && before.current === after.current &&
    before.onJump === after.onJump,
);

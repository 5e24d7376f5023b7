import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Model } from "@daedalus/client";
import {
  chooseEffort,
  currentEffort,
  type EffortChoice,
  effortChoices,
} from "../../state/reasoning_effort.ts";
import { t } from "../../i18n/i18n.ts";
import { moveFocusInMenu } from "../list_keys.ts";
import "./attachments.css";

/**
 * The reasoning-effort submenu beside the model picker, for models that declare efforts:
 * a button showing the current choice and a menu of radio items (arrows, Home, End;
 * Enter or Space picks; Escape closes and returns focus to the button).
 */
export function EffortMenu(props: { model: Model; disabled: boolean }) {
  const { model } = props;
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const choices = effortChoices(model);
  const current = currentEffort(model);
  useLayoutEffect(() => {
    // Open on the current choice, so arrows move from what is selected.
    if (open) menu.current?.querySelector<HTMLElement>("[aria-checked=true]")?.focus();
  }, [open]);
  if (choices.length === 0) return null;
  const label = (choice: EffortChoice) => t(`effort.${choice}`);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const pick = (choice: EffortChoice) => {
    chooseEffort(model, choice);
    close();
  };
  const onKey = moveFocusInMenu("[role=menuitemradio]", close);
  return (
    <div
      class="menu-anchor effort-menu"
      onFocusOut={(event) => {
        const next = event.relatedTarget as Node | null;
        if (open && next && !event.currentTarget.contains(next)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        class="effort-button"
        aria-haspopup="menu"
        aria-expanded={open}
        title={t("effort.label")}
        aria-label={`${t("effort.label")}: ${label(current)}`}
        disabled={props.disabled}
        onClick={() => setOpen(!open)}
      >
        {/* On a phone only the level shows; the accessible name keeps the whole label. */}
        <span class="effort-prefix">{t("effort.prefix")}</span>
        {label(current)}
      </button>
      {open && (
        <ul ref={menu} role="menu" aria-label={t("effort.label")} onKeyDown={onKey}>
          {choices.map((choice) => (
            <li
              key={choice}
              role="menuitemradio"
              aria-checked={choice === current}
              tabIndex={-1}
              onClick={() => pick(choice)}
              onKeyDown={(event) => {
                if (event.key === "Enter" || event.key === " ") {
                  event.preventDefault();
                  pick(choice);
                }
              }}
            >
              {label(choice)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

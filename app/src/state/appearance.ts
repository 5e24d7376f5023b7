/**
 * The live appearance: theme, colours, fonts and reduced motion as one signal, applied to
 * `document.documentElement` (`data-theme`, `data-reduced-motion`, custom properties)
 * whenever it or the system's colour preference changes, and remembered in localStorage.
 * `main.tsx` calls {@linkcode applyAppearance} before the first render so there is no
 * flash of the wrong palette.
 *
 * @module
 */
import { computed, effect, signal } from "@preact/signals";
import { browserStorage } from "./web_storage.ts";
import {
  type Appearance,
  cssVariables,
  type Palette,
  parseAppearance,
  resolvePalette,
} from "./appearance_prefs.ts";

const STORAGE_KEY = "daedalus.appearance";

function loadAppearance(): Appearance {
  try {
    return parseAppearance(browserStorage()?.getItem(STORAGE_KEY) ?? null);
  } catch {
    return parseAppearance(null); // storage refused the read: defaults for this session
  }
}

function darkQuery(): MediaQueryList | null {
  return typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null;
}

/** The preferences; set through {@linkcode updateAppearance}. */
export const appearance = signal<Appearance>(loadAppearance());
/** Whether the system currently prefers dark (follows changes live). */
export const systemDark = signal<boolean>(darkQuery()?.matches ?? false);
/** The palette on screen. */
export const palette = computed<Palette>(() =>
  resolvePalette(appearance.value.theme, systemDark.value)
);

/**
 * Changes some preferences, applies them at once and remembers them.
 *
 * @param change the fields to change
 */
export function updateAppearance(change: Partial<Appearance>): void {
  appearance.value = { ...appearance.value, ...change };
  try {
    browserStorage()?.setItem(STORAGE_KEY, JSON.stringify(appearance.value));
  } catch {
    // quota or disabled storage: applied for this session, not remembered
  }
}

let applying: (() => void) | null = null;

/**
 * Applies the appearance to the document now and on every later change (idempotent).
 *
 * @param root the element that carries the theme (the document's)
 */
export function applyAppearance(root: HTMLElement = document.documentElement): void {
  if (applying) return;
  darkQuery()?.addEventListener("change", (event) => (systemDark.value = event.matches));
  applying = effect(() => {
    const shown = palette.value;
    root.dataset.theme = shown;
    root.dataset.reducedMotion = appearance.value.reducedMotion;
    for (const [name, value] of Object.entries(cssVariables(appearance.value, shown))) {
      if (value === null) root.style.removeProperty(name);
      else root.style.setProperty(name, value);
    }
    document.querySelector('meta[name="theme-color"]')?.setAttribute(
      "content",
      getComputedStyle(root).getPropertyValue("--bg").trim() || "#1e293b",
    );
  });
}

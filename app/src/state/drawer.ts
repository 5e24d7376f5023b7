/**
 * The phone layout's navigation drawer: below {@linkcode DRAWER_MAX_WIDTH_PX} the sidebar
 * slides in over the conversation instead of taking a column. Which layout applies is
 * followed from a media query, so rotating a phone or resizing a window switches it.
 *
 * @module
 */
import { signal } from "@preact/signals";

/**
 * Widest viewport, in CSS px, that gets the drawer: a 260 px sidebar beside a readable
 * column needs more. styles.css uses the same number in its media queries.
 */
export const DRAWER_MAX_WIDTH_PX = 700;

const PHONE_QUERY = `(max-width: ${DRAWER_MAX_WIDTH_PX}px)`;

function phoneQuery(): MediaQueryList | null {
  return typeof matchMedia === "function" ? matchMedia(PHONE_QUERY) : null;
}

/** Whether the viewport is narrow enough for the drawer layout. */
export const phoneLayout = signal<boolean>(phoneQuery()?.matches ?? false);

/** Whether the drawer is open (only meaningful in the phone layout). */
export const drawerOpen = signal<boolean>(false);

/** The control that opened the drawer, which gets the focus back when it closes. */
let opener: HTMLElement | null = null;

phoneQuery()?.addEventListener("change", (event) => {
  phoneLayout.value = event.matches;
  // Wider again, the sidebar is a column: a drawer left open would hold the page inert.
  if (!event.matches) drawerOpen.value = false;
});

/**
 * Opens the drawer; the sidebar moves the focus into it once it renders.
 *
 * @param from the button that opened it, focused again on close
 */
export function openDrawer(from: HTMLElement | null): void {
  opener = from;
  drawerOpen.value = true;
}

/**
 * Closes the drawer.
 *
 * @param restoreFocus whether the focus returns to the opener (not when the drawer closes
 *   because one of its actions opened a dialog or a thread, which takes the focus itself)
 */
export function closeDrawer(restoreFocus = true): void {
  if (!drawerOpen.value) return;
  focusBack = restoreFocus ? opener : null;
  opener = null;
  drawerOpen.value = false;
}

/** The opener to focus once the page behind the drawer is no longer inert. */
let focusBack: HTMLElement | null = null;

/**
 * Gives the focus back to the drawer's opener after a close that asked for it. Called
 * once the page has rendered without `inert` (an inert element cannot take the focus).
 */
export function restoreDrawerFocus(): void {
  focusBack?.focus();
  focusBack = null;
}

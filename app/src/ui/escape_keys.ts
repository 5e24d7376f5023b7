/**
 * Escape inside a nested editor (a form within a Settings section) closes that editor
 * only: the key is taken before the surrounding `<dialog>` sees it, so typed input in the
 * rest of Settings is not lost with the whole dialog.
 *
 * @module
 */

/**
 * A keydown handler that runs `close` on Escape (outside IME composition) and keeps the
 * key from reaching the enclosing dialog.
 *
 * @param close what Escape does here
 * @returns the handler
 */
export function closeOnEscape(close: () => void): (event: KeyboardEvent) => void {
  return (event) => {
    if (event.key !== "Escape" || event.isComposing) return;
    event.preventDefault();
    event.stopPropagation();
    close();
  };
}

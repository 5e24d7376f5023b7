/**
 * The open/close wiring every modal of the app shares around a native `<dialog>`: it is
 * shown with `showModal()` (the browser keeps focus inside and Escape closes it) when the
 * state that owns it says open, and whichever way it closes, that state hears of it.
 *
 * @module
 */
import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";

/** What a modal's component puts on its `<dialog>` and its Close buttons. */
export interface ModalDialog {
  /** For the `<dialog>`'s `ref`. */
  ref: RefObject<HTMLDialogElement | null>;
  /** For the `<dialog>`'s `onClose`: Escape, or any other way the browser closes it. */
  onClose: (event: Event) => void;
  /** Closes the dialog and tells the owner at once (the `close` event comes a task later). */
  close: () => void;
}

/**
 * Shows the dialog as a modal when `open` turns true.
 *
 * @param open whether the owning state wants the dialog shown; the component renders the
 *   `<dialog>` while it is
 * @param onClosed tells the owning state the dialog closed; it may be called twice for one
 *   close (by `close` and by the `close` event), so it only sets state
 * @param onOpened resets what the dialog shows, each time it opens
 * @returns the ref, the close handler and a close action
 */
export function useModalDialog(
  open: boolean,
  onClosed: () => void,
  onOpened?: () => void,
): ModalDialog {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!open) return;
    onOpened?.();
    // Already shown (a re-render while open): showModal() on an open dialog is refused.
    if (!ref.current?.open) ref.current?.showModal();
  }, [open]);
  return {
    ref,
    // A `close` event comes a task after close(); by then the dialog may be gone and a new
    // one open (Escape, then Ctrl+K at once): only the dialog shown now may close the modal.
    onClose: (event) => {
      if (event.currentTarget === ref.current) onClosed();
    },
    close: () => {
      ref.current?.close();
      onClosed();
    },
  };
}

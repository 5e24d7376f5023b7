import type { ComponentChildren } from "preact";
import type { ModalDialog } from "./modal_dialog.ts";

/**
 * The frame of a titled modal: the native `<dialog>` labelled by its heading, a header
 * with the title, any extra actions and Close, then the body. The state behind it comes
 * from {@linkcode useModalDialog}.
 *
 * @param props.modal the dialog's wiring
 * @param props.class the dialog's own class (besides `modal`)
 * @param props.titleId the heading's id (the dialog's accessible name)
 * @param props.title the heading's content
 * @param props.closeLabel the Close button's text
 * @param props.closeAutofocus whether Close takes focus when the dialog opens
 * @param props.headerClass a class for the header
 * @param props.actions buttons shown before Close
 */
export function ModalFrame(props: {
  modal: ModalDialog;
  class: string;
  titleId: string;
  title: ComponentChildren;
  closeLabel: string;
  closeAutofocus?: boolean;
  headerClass?: string;
  actions?: ComponentChildren;
  children?: ComponentChildren;
}) {
  const close = (
    <button type="button" onClick={props.modal.close} autofocus={props.closeAutofocus}>
      {props.closeLabel}
    </button>
  );
  return (
    <dialog
      ref={props.modal.ref}
      class={`modal ${props.class}`}
      aria-labelledby={props.titleId}
      onClose={props.modal.onClose}
    >
      <header class={props.headerClass}>
        <h2 id={props.titleId}>{props.title}</h2>
        {props.actions
          ? (
            <div class="modal-actions">
              {props.actions}
              {close}
            </div>
          )
          : close}
      </header>
      {props.children}
    </dialog>
  );
}

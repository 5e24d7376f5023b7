/**
 * The one way a settings form sends what it checked: problems go beside their fields and
 * nothing is sent; otherwise the form is busy while the runtime answers, and a refusal
 * (a string) becomes the form's failure line. What the user typed stays either way.
 *
 * @module
 */
import type { Signal } from "@preact/signals";
import type { Checked, FieldProblem } from "../../state/provider_form.ts";

/** The form state a send updates. */
export interface FormSignals<F extends string> {
  problems: Signal<FieldProblem<F>[]>;
  failure: Signal<string | null>;
  busy: Signal<boolean>;
}

/**
 * Sends checked params, or shows their problems.
 *
 * @param form the form's problems, failure line and busy flag
 * @param checked the params, or the problems found in the form
 * @param send the call; a string it resolves to is the runtime's refusal, shown as the failure
 * @returns what the call resolved to when it was sent and not refused, else null
 */
export async function sendChecked<P, F extends string, R>(
  form: FormSignals<F>,
  checked: Checked<P, F>,
  send: (params: P) => Promise<R | string>,
): Promise<{ value: R } | null> {
  form.failure.value = null;
  if (!checked.ok) {
    form.problems.value = checked.problems;
    return null;
  }
  form.problems.value = [];
  form.busy.value = true;
  const result = await send(checked.params);
  form.busy.value = false;
  if (typeof result === "string") {
    form.failure.value = result;
    return null;
  }
  return { value: result };
}

/**
 * Calling a runtime core's RPC methods in tests as the HTTP transport does: dispatch,
 * then the after-response step (which starts queued Runs), then the raw result.
 *
 * @module
 */
import type { RuntimeCore } from "./runtime_core.ts";

/**
 * A call function bound to a core.
 *
 * @param core the opened runtime core
 * @returns `call(method, params)`, resolving to the method's result as the wire has it
 */
export function dispatchOn(
  core: RuntimeCore,
  // deno-lint-ignore no-explicit-any
): (method: string, params: unknown) => Promise<any> {
  return async (method, params) => {
    const outcome = await core.dispatcher.dispatch(method, params, { id: "t", transport: "http" });
    outcome.afterResponse?.();
    return outcome.result;
  };
}

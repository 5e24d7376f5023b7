import { ToolError } from "@daedalus/tools";

/**
 * A store's, scheduler's or manager's failure as the tool error the model reads: its
 * stable code (an RPC error's `data.reasonCode`, else its `code`) leads the text, as the
 * session and process tools have always said it. Errors without a code go on unchanged
 * (the wrapper reports them as `tool_failed`).
 */
export function toToolError(error: unknown): unknown {
  if (error instanceof ToolError || !(error instanceof Error)) return error;
  const reason = (error as { data?: { reasonCode?: unknown } }).data?.reasonCode;
  const code = typeof reason === "string" ? reason : (error as { code?: unknown }).code;
  if (typeof code !== "string") return error;
  return new ToolError(code, `${code}: ${error.message}`, { cause: error });
}

/**
 * Wraps an operation so its coded failures reach the tool as {@linkcode ToolError}s,
 * thrown or rejected alike.
 */
export function coded<A extends unknown[], R>(operation: (...args: A) => R): (...args: A) => R {
  return (...args: A): R => {
    try {
      const result = operation(...args);
      if (result instanceof Promise) {
        return result.catch((error) => {
          throw toToolError(error);
        }) as R;
      }
      return result;
    } catch (error) {
      throw toToolError(error);
    }
  };
}

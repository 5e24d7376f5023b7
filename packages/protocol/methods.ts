/**
 * The registry of every RPC method: one place that names each method's params and
 * result schema, and the validators that turn zod issues into JSON-RPC errors.
 *
 * @module
 */
import type { z } from "zod";
import type { MethodSpec } from "./methods/_define.ts";
import { initialize, runtimeMethods } from "./methods/runtime.ts";
import { threadMethods } from "./methods/thread.ts";
import { turnMethods } from "./methods/turn.ts";
import { providerMethods } from "./methods/provider.ts";
import { skillMethods } from "./methods/skill.ts";
import { memoryMethods } from "./methods/memory.ts";
import { workspaceMethods } from "./methods/workspace.ts";
import { RPC_ERROR_CODES, RpcError } from "./errors.ts";

export type { MethodSpec } from "./methods/_define.ts";

/** Every method a client may call after `initialize`, by name. */
export const METHODS = {
  ...threadMethods,
  ...turnMethods,
  ...providerMethods,
  ...skillMethods,
  ...memoryMethods,
  ...workspaceMethods,
  ...runtimeMethods,
} as const;

/** `initialize` and every other method. */
export const ALL_METHODS = { initialize, ...METHODS } as const;

/** The name of a method callable after `initialize`. */
export type MethodName = keyof typeof METHODS;
/** The name of any method, `initialize` included. */
export type AnyMethodName = keyof typeof ALL_METHODS;
/** The params a caller passes to a method (before defaults). */
export type ParamsOf<M extends AnyMethodName> = z.input<typeof ALL_METHODS[M]["params"]>;
/** The params a method receives after validation. */
export type ValidParamsOf<M extends AnyMethodName> = z.output<typeof ALL_METHODS[M]["params"]>;
/** The result a method returns. */
export type ResultOf<M extends AnyMethodName> = z.infer<typeof ALL_METHODS[M]["result"]>;

/** Names of the methods callable after `initialize`, in registry order. */
export const METHOD_NAMES = Object.keys(METHODS) as MethodName[];

/**
 * Tells whether a string names a known method (`initialize` included).
 *
 * @param name a method name from the wire
 * @returns true for a known method
 */
export function isMethodName(name: string): name is AnyMethodName {
  return Object.hasOwn(ALL_METHODS, name);
}

/**
 * Validates a method's params.
 *
 * @param name the method
 * @param params the params as received (absent params count as `{}`)
 * @returns the validated params
 * @throws {RpcError} -32602 with reasonCode `unknown_field` or `invalid_params` and the
 *   offending field's dotted path in `data.field` and in the message
 */
export function parseParams<M extends AnyMethodName>(name: M, params: unknown): ValidParamsOf<M> {
  const spec: MethodSpec = ALL_METHODS[name];
  const parsed = spec.params.safeParse(params ?? {});
  if (parsed.success) return parsed.data as ValidParamsOf<M>;
  throw paramsError(name, parsed.error);
}

/**
 * Validates a method's result (used by clients on what they receive, and by tests).
 *
 * @param name the method
 * @param result the result as received
 * @returns the validated result
 * @throws {RpcError} -32603 naming the method and the offending field
 */
export function parseResult<M extends AnyMethodName>(name: M, result: unknown): ResultOf<M> {
  const spec: MethodSpec = ALL_METHODS[name];
  const parsed = spec.result.safeParse(result);
  if (parsed.success) return parsed.data as ResultOf<M>;
  const issue = parsed.error.issues[0];
  const field = issue ? dottedPath(issue.path) : "";
  throw new RpcError(
    RPC_ERROR_CODES.internalError,
    "internal_error",
    `Invalid result of ${name}${field ? ` at ${field}` : ""}: ${issue?.message ?? "invalid"}`,
    field ? { field } : {},
  );
}

/**
 * Turns a zod error on params into the JSON-RPC error the runtime sends.
 *
 * @param name the method
 * @param error the zod error
 * @returns an RpcError naming the first offending field
 */
export function paramsError(name: string, error: z.ZodError): RpcError {
  const issue = error.issues[0];
  if (issue?.code === "unrecognized_keys") {
    const field = dottedPath([...issue.path, issue.keys[0] ?? ""]);
    return new RpcError(
      RPC_ERROR_CODES.invalidParams,
      "unknown_field",
      `Unknown field "${field}" in params of ${name}`,
      { field },
    );
  }
  const field = issue ? dottedPath(issue.path) : "";
  const where = field ? `"${field}"` : "params";
  return new RpcError(
    RPC_ERROR_CODES.invalidParams,
    "invalid_params",
    `Invalid ${where} in params of ${name}: ${issue?.message ?? "invalid"}`,
    field ? { field } : {},
  );
}

/**
 * Joins a zod issue path as `a.b[2].c`.
 *
 * @param path the issue path
 * @returns the dotted path
 */
export function dottedPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/**
 * The registry of every RPC method: one place that names each method's params and
 * result schema, and the validators that turn schema issues into JSON-RPC errors.
 *
 * @module
 */
import type { Schema, SchemaError } from "./schema.ts";
import type { MethodParamsMap, MethodResultMap } from "./types.gen.ts";
import * as registry from "./_schemas/methods.ts";
import { RPC_ERROR_CODES, RpcError } from "./errors.ts";

/** The params and result schemas of one RPC method. */
export interface MethodSpec<P = unknown, R = unknown> {
  /** Strict params: unknown fields are an error. */
  params: Schema<P>;
  /** The result; servers may add fields, so clients tolerate unknown ones. */
  result: Schema<R>;
  /** What the method does, for the generated protocol file. */
  description: string;
}

/** The name of any method, `initialize` included. */
export type AnyMethodName = keyof MethodResultMap;
/** The name of a method callable after `initialize`. */
export type MethodName = Exclude<AnyMethodName, "initialize">;
/**
 * The params a caller passes to a method. The same type as {@linkcode ValidParamsOf}:
 * no params schema has a default or transform (the generator refuses one until it emits
 * a separate input type).
 */
export type ParamsOf<M extends AnyMethodName> = MethodParamsMap[M];
/** The params a method receives after validation. */
export type ValidParamsOf<M extends AnyMethodName> = MethodParamsMap[M];
/** The result a method returns. */
export type ResultOf<M extends AnyMethodName> = MethodResultMap[M];

/** Every method a client may call after `initialize`, by name. */
export const METHODS: { readonly [M in MethodName]: MethodSpec<ValidParamsOf<M>, ResultOf<M>> } =
  registry.METHODS;

/** `initialize` and every other method. */
export const ALL_METHODS: {
  readonly [M in AnyMethodName]: MethodSpec<ValidParamsOf<M>, ResultOf<M>>;
} = registry.ALL_METHODS;

/** Names of the methods callable after `initialize`, in registry order. */
export const METHOD_NAMES: MethodName[] = Object.keys(METHODS) as MethodName[];

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
 * Turns a schema error on params into the JSON-RPC error the runtime sends.
 *
 * @param name the method
 * @param error the error of the params schema
 * @returns an RpcError naming the first offending field
 */
export function paramsError(name: string, error: SchemaError): RpcError {
  const issue = error.issues[0];
  if (issue?.code === "unrecognized_keys") {
    const field = dottedPath([...issue.path, issue.keys?.[0] ?? ""]);
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

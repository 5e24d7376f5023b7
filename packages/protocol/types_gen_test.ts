/**
 * The generated types and the zod schemas agree both ways. `types.gen.ts` checks one
 * direction itself (each zod schema is assigned to `Schema<ItsGeneratedType>`, so
 * `z.infer` must fit the generated type); this file checks the other, so a generated type
 * can be neither wider nor narrower than what its schema accepts. Both fail `deno check`.
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import type { Schema } from "./schema.ts";
import type * as zodSchemas from "./_schemas/public.ts";
import type { EVENT_PAYLOADS } from "./_schemas/events.ts";
import type { ALL_METHODS } from "./_schemas/methods.ts";
import type * as generated from "./types.gen.ts";
import type { EventPayloadMap, MethodParamsMap, MethodResultMap } from "./types.gen.ts";

/**
 * True when each type is assignable to the other. Assignability cannot tell an object
 * type with `[key: string]: unknown` from one without; the text comparison of
 * `deno task protocol:check` covers that.
 */
type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The type a typed export validates. */
type Validated<S> = S extends Schema<infer T> ? T : never;
/** The keys for which the check is false; `never` when it holds for all. */
type Failing<Checks> = { [K in keyof Checks]: Checks[K] extends true ? never : K }[keyof Checks];

type ZodSchemas = typeof zodSchemas;
type Payloads = typeof EVENT_PAYLOADS;
type Methods = typeof ALL_METHODS;

type NamedDrift = Failing<
  { [K in keyof ZodSchemas]: Agree<z.output<ZodSchemas[K]>, Validated<typeof generated[K]>> }
>;
type PayloadDrift = Failing<
  { [T in keyof Payloads]: Agree<z.output<Payloads[T]>, EventPayloadMap[T]> }
>;
type ParamsDrift = Failing<
  {
    [M in keyof Methods]: Agree<z.output<Methods[M]["params"]>, MethodParamsMap[M]> extends true
      ? Agree<z.input<Methods[M]["params"]>, MethodParamsMap[M]>
      : false;
  }
>;
type ResultDrift = Failing<
  { [M in keyof Methods]: Agree<z.output<Methods[M]["result"]>, MethodResultMap[M]> }
>;
type NameDrift = Failing<{
  events: Agree<keyof Payloads, keyof EventPayloadMap>;
  params: Agree<keyof Methods, keyof MethodParamsMap>;
  results: Agree<keyof Methods, keyof MethodResultMap>;
}>;

/** Compiles only when `Drift` is `never`; otherwise the error names what drifted. */
function noDrift<Drift extends never>(): Drift[] {
  return [];
}

Deno.test("every generated type agrees with z.infer of its schema, both ways", () => {
  assert.deepEqual(noDrift<NamedDrift>(), []);
  assert.deepEqual(noDrift<PayloadDrift>(), []);
  assert.deepEqual(noDrift<ParamsDrift>(), []);
  assert.deepEqual(noDrift<ResultDrift>(), []);
  assert.deepEqual(noDrift<NameDrift>(), []);
});

Deno.test("the agreement check tells optional, nullable and narrower types apart", () => {
  const checks: [boolean, boolean, boolean, boolean] = [
    true satisfies Agree<
      { a: string; [key: string]: unknown },
      { a: string } & Record<string, unknown>
    >,
    false satisfies Agree<{ a: string }, { a?: string }>,
    false satisfies Agree<{ a: string }, { a: string | null }>,
    false satisfies Agree<{ a: "x" | "y" }, { a: "x" }>,
  ];
  assert.deepEqual(checks, [true, false, false, false]);
});

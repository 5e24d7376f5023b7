import type { z } from "zod";

/** The zod schemas of one RPC method's params and result. */
export interface MethodDefinition<
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  /** Strict params: unknown fields are an error. */
  params: P;
  /** The result; servers may add fields, so clients tolerate unknown ones. */
  result: R;
  /** What the method does, for the generated protocol file. */
  description: string;
}

/** Declares a method; a function only so each definition keeps its precise types. */
export function method<P extends z.ZodType, R extends z.ZodType>(
  definition: MethodDefinition<P, R>,
): MethodDefinition<P, R> {
  return definition;
}

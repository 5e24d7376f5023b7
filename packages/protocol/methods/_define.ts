import type { z } from "zod";

/** The params and result schemas of one RPC method. */
export interface MethodSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  /** Strict params: unknown fields are an error. */
  params: P;
  /** The result; servers may add fields, so clients tolerate unknown ones. */
  result: R;
  /** What the method does, for the generated protocol file. */
  description: string;
}

/** Declares a method; a function only so each spec keeps its precise types. */
export function method<P extends z.ZodType, R extends z.ZodType>(
  spec: MethodSpec<P, R>,
): MethodSpec<P, R> {
  return spec;
}

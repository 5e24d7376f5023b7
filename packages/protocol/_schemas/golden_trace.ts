/**
 * The shape of the golden trace file (`protocol/golden-trace.json`).
 *
 * @module
 */
import { z } from "zod";
import { docs } from "./docs.ts";

export const GoldenStep = z.strictObject({
  from: z.enum(["client", "server"]),
  /** Marks a client message that is deliberately malformed (its params are not validated). */
  invalid: z.boolean().optional(),
  message: z.unknown(),
}).register(docs, { description: "One message of a case, in the order it crossed the wire." });

export const GoldenCase = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  steps: z.array(GoldenStep).min(1),
}).register(docs, { description: "One recorded conversation." });

export const GoldenTrace = z.strictObject({
  version: z.literal(1),
  cases: z.array(GoldenCase),
}).register(docs, { description: "The whole trace file." });

/**
 * The JSON-RPC error object and its `data`.
 *
 * @module
 */
import { z } from "zod";
import { ErrorReasonCode } from "./reason_codes.ts";
import { docs } from "./docs.ts";

export const RpcErrorData = z.looseObject({
  /** Stable, machine-readable reason. */
  reasonCode: ErrorReasonCode,
  /** The offending params field as a dotted path, when one is to blame. */
  field: z.string().optional(),
  /** Seconds after which a retry may succeed, for retryable provider failures. */
  retryAfterSec: z.number().nonnegative().optional(),
}).register(docs, {
  description: "The `data` member of every error the runtime sends: always a `reasonCode`, " +
    "`field` when a params field is to blame, `retryAfterSec` for retryable provider failures.",
});

export const RpcErrorObject = z.object({
  code: z.int(),
  message: z.string(),
  data: RpcErrorData,
}).register(docs, { description: "A JSON-RPC error object." });

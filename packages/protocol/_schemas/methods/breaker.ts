/**
 * `breaker.*`: the circuit breakers of tools and providers (issue 14, gate stage 6), as
 * they stand now. They live in the runtime's memory and reset when it restarts.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { Timestamp } from "../ids.ts";
import { docs } from "../docs.ts";

export const BreakerSnapshot = z.looseObject({
  /** The tool id, or `provider:<providerId>`. */
  key: z.string().min(1),
  kind: z.enum(["tool", "provider"]),
  /** An open breaker whose wait is over shows `half_open`: the next call is its probe. */
  state: z.enum(["closed", "open", "half_open"]),
  /** Calls in the failure-rate window (the last 10 by default). */
  recentCalls: z.int().min(0),
  /** Failures among them. */
  recentFailures: z.int().min(0),
  /** Failures in a row up to now. */
  consecutiveFailures: z.int().min(0),
  /** When it last opened, or null while closed. */
  openedAt: Timestamp.nullable(),
  /** When the next probe may pass (past when it may now), or null while closed. */
  retryAt: Timestamp.nullable(),
}).register(docs, {
  description: "One circuit breaker (`breaker.list`): a tool's, keyed by the tool id, or a " +
    "provider's, keyed `provider:<providerId>`.",
});

/** Methods of the `breaker` namespace. */
export const breakerMethods = {
  "breaker.list": method({
    description: "Lists the circuit breakers of tools and providers that have seen a call " +
      "since the runtime started, tools first, each sorted by key",
    params: z.strictObject({}),
    result: z.looseObject({ breakers: z.array(BreakerSnapshot) }),
  }),
};

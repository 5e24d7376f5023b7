/**
 * `initialize` and `runtime.*`.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";

/** `initialize` must be the first request on a WebSocket connection. */
export const initialize = method({
  description: "Opens a session: names the protocol version; must come first on a WebSocket",
  params: z.strictObject({
    protocolVersion: z.int().min(1),
    client: z.strictObject({
      name: z.string().min(1).max(200),
      version: z.string().min(1).max(200),
    }).optional(),
  }),
  result: z.looseObject({
    protocolVersion: z.int().min(1),
    server: z.looseObject({ name: z.string(), version: z.string() }),
    /** The newest committed seq; replay from the client's own cursor up to here. */
    latestSeq: z.int().min(0),
  }),
});

/** Methods of the `runtime` namespace. */
export const runtimeMethods = {
  "runtime.shutdown": method({
    description: "Shuts the runtime down cleanly: cancels active runs, closes databases",
    params: z.strictObject({}),
    result: z.looseObject({ accepted: z.boolean() }),
  }),
};

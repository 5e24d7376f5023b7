/**
 * `initialize` and `runtime.*`.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";

/** How a connection's `event` notifications are encoded. */
const EventEncoding = z.enum(["full", "compact"]);

/** `initialize` must be the first request on a WebSocket connection. */
export const initialize = method({
  description: "Opens a session: names the protocol version; must come first on a WebSocket. " +
    '`eventEncoding: "compact"` leaves out of each `event` notification the copies of scope ' +
    "ids its envelope determines (null envelope ids, the payload's mirrored ids, and the " +
    "envelope's ids and timestamp inside the item, run, turn, thread or branch it carries)",
  params: z.strictObject({
    protocolVersion: z.int().min(1),
    client: z.strictObject({
      name: z.string().min(1).max(200),
      version: z.string().min(1).max(200),
    }).optional(),
    /**
     * `compact`: `event` notifications leave out the copies of scope ids the envelope
     * determines (packages/protocol/event_encoding.ts); default `full`.
     */
    eventEncoding: EventEncoding.optional(),
  }),
  result: z.looseObject({
    protocolVersion: z.int().min(1),
    server: z.looseObject({ name: z.string(), version: z.string() }),
    /** The newest committed seq; replay from the client's own cursor up to here. */
    latestSeq: z.int().min(0),
    /** How this connection's `event` notifications are encoded (absent from older runtimes: `full`). */
    eventEncoding: EventEncoding.optional(),
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

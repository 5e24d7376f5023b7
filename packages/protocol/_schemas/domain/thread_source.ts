/**
 * Where a thread came from when the owner did not start it in a client of their own: a
 * gateway app key today; a messaging channel (issue 20) and `daedalus run` (issue 19) add
 * their own kinds to the same union.
 *
 * @module
 */
import { z } from "zod";
import { docs } from "../docs.ts";
import { GatewayKeyId } from "../methods/gateway.ts";
import { GATEWAY_KEY_NAME_MAX_CHARS } from "../../limits.ts";

export const GatewayThreadSource = z.strictObject({
  kind: z.literal("gateway"),
  keyId: GatewayKeyId,
  /** The key's name when the thread was made; kept after the key is revoked. */
  keyName: z.string().min(1).max(GATEWAY_KEY_NAME_MAX_CHARS),
}).register(docs, {
  description: "A thread made through the gateway (Dify-compatible API or AG-UI) for an " +
    "app key, named as the key was when the thread was made.",
});

export const ThreadSource = z.discriminatedUnion("kind", [GatewayThreadSource]).register(docs, {
  description: "Who started a thread that the owner did not start themselves, by kind " +
    "(`gateway` now; more kinds join the union).",
});

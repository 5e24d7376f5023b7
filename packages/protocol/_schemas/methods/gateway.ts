/**
 * `gateway.key.*`: the app keys the gateway endpoints (Dify-compatible, AG-UI) accept
 * instead of the owner token. Each key is bound to an agent profile that decides what a
 * run started with it may do; the request never does. A key is shown once, when created;
 * the runtime keeps only its hash.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { Identifier, Timestamp } from "../ids.ts";
import { ExecutionPolicy } from "../enums.ts";
import { ModelRef } from "../domain/provider.ts";
import { AgentId } from "../domain/agent.ts";
import { docs } from "../docs.ts";
import {
  GATEWAY_KEY_MODELS_MAX_COUNT,
  GATEWAY_KEY_NAME_MAX_CHARS,
  GATEWAY_KEY_ORIGINS_MAX_COUNT,
  GATEWAY_KEY_TOOLS_MAX_COUNT,
  PATH_MAX_CHARS,
} from "../../limits.ts";

export const GatewayKeyId = z.string().regex(/^gwkey_[0-9a-f]{32}$/, {
  error: "expected a gateway key id (gwkey_ + 32 lowercase hex digits)",
}).register(docs, { description: "A gateway app key's id (not the key: that is secret)." });

export const GatewayKeyProfile = z.strictObject({
  providerId: Identifier,
  modelId: Identifier,
  /** The execution policy of every run the key starts. */
  permission: ExecutionPolicy,
  /** A project folder (absolute path) its threads work in; a managed folder when absent. */
  workspace: z.string().min(1).max(PATH_MAX_CHARS).optional(),
  /**
   * Other models a request may choose for its run (AG-UI `forwardedProps.model`); only
   * `providerId`/`modelId` when absent.
   */
  models: z.array(ModelRef).max(GATEWAY_KEY_MODELS_MAX_COUNT).optional(),
  /**
   * The agent profile its threads are bound to (AG-UI's `/ag-ui/:agent` may name another);
   * the default profile when absent. A profile only narrows what the key allows.
   */
  agentId: AgentId.optional(),
  /** The only tools its runs may call (tool ids); all of the runtime's when absent. */
  tools: z.array(Identifier).max(GATEWAY_KEY_TOOLS_MAX_COUNT).optional(),
  /** Browser origins allowed to call with the key (CORS); none when absent. */
  allowedOrigins: z.array(z.url().max(PATH_MAX_CHARS)).max(GATEWAY_KEY_ORIGINS_MAX_COUNT)
    .optional(),
}).register(docs, {
  description: "What runs started with a gateway app key may do: their model, execution " +
    "policy, workspace and tools, and which browser origins may use the key.",
});

export const GatewayKey = z.looseObject({
  keyId: GatewayKeyId,
  name: z.string().min(1).max(GATEWAY_KEY_NAME_MAX_CHARS),
  profile: GatewayKeyProfile,
  /** The key's first characters (`app-` and 4 more), to tell keys apart; never the key. */
  hint: z.string(),
  createdAt: Timestamp,
  /** When the key was last accepted; null until then. */
  lastUsedAt: Timestamp.nullable(),
  /** When it was revoked; null while it is valid. */
  revokedAt: Timestamp.nullable(),
}).register(docs, { description: "A gateway app key as `gateway.key.list` shows it." });

/** Methods of the `gateway` namespace. */
export const gatewayMethods = {
  "gateway.key.create": method({
    description: "Creates a gateway app key bound to an agent profile; the answer carries " +
      "the key itself, the only time it is shown (the runtime keeps its hash)",
    params: z.strictObject({
      name: z.string().trim().min(1).max(GATEWAY_KEY_NAME_MAX_CHARS),
      profile: GatewayKeyProfile,
    }),
    result: z.looseObject({ keyId: GatewayKeyId, key: z.string(), gatewayKey: GatewayKey }),
  }),
  "gateway.key.list": method({
    description: "Lists the gateway app keys, revoked ones included, newest first",
    params: z.strictObject({}),
    result: z.looseObject({ keys: z.array(GatewayKey) }),
  }),
  "gateway.key.revoke": method({
    description: "Revokes a gateway app key: the gateway refuses it from now on (401). " +
      "Revoking a revoked key changes nothing",
    params: z.strictObject({ keyId: GatewayKeyId }),
    result: z.looseObject({ gatewayKey: GatewayKey, changed: z.boolean() }),
  }),
};

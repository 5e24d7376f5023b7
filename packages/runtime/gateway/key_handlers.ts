/**
 * `gateway.key.create`, `gateway.key.list`, `gateway.key.revoke`: the app keys, managed by
 * the owner over RPC. A new key's profile is checked against the runtime (its model is
 * configured, its workspace is a folder, its tools exist) so a key never promises what
 * no run could do. The key becomes a protected value once its answer is sent.
 *
 * @module
 */
import { isAbsolute } from "node:path";
import {
  type ErrorReasonCode,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  type ValidParamsOf,
} from "@daedalus/protocol";
import type { Handled } from "../services/services.ts";
import { GatewayKeyError, type GatewayKeyStore } from "./key_store.ts";
import type { KeyRateLimiter } from "./rate_limiter.ts";

/** The methods served here. */
export type GatewayKeyMethod = "gateway.key.create" | "gateway.key.list" | "gateway.key.revoke";

/** One handler per `gateway.key.*` method. */
export type GatewayKeyHandlers = {
  [M in GatewayKeyMethod]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

/** What the handlers need. */
export interface GatewayKeyHandlerOptions {
  /** The keys. */
  keys: GatewayKeyStore;
  /** The gateway's rate limiter: a revoked key's bucket is dropped. */
  limiter?: KeyRateLimiter;
  /** Throws `model_not_configured` (RpcError) for a model no run could use. */
  resolveModel: (providerId: string, modelId: string) => unknown;
  /** The names of the tools runs may call. */
  toolNames: () => Iterable<string>;
  /** Throws `agent_not_found` (RpcError) for an agent profile that does not exist. */
  checkAgent?: (agentId: string) => Promise<unknown>;
  /** Throws `protected_value` when a value carries a configured credential. */
  assertSafe: (value: unknown, field: string) => void;
  /** Protects a value from now on (the new key, once its answer is sent). */
  protect: (value: string) => void;
}

/**
 * Builds the `gateway.key.*` handlers.
 *
 * @param options the key store and the runtime's checks
 * @returns the handlers
 */
export function createGatewayKeyHandlers(options: GatewayKeyHandlerOptions): GatewayKeyHandlers {
  return {
    "gateway.key.create": async ({ name, profile }) => {
      options.assertSafe(name, "name");
      options.resolveModel(profile.providerId, profile.modelId);
      for (const model of profile.models ?? []) {
        options.resolveModel(model.providerId, model.modelId);
      }
      if (profile.agentId !== undefined) await options.checkAgent?.(profile.agentId);
      if (profile.workspace !== undefined) await checkWorkspace(profile.workspace);
      if (profile.tools !== undefined) {
        const known = new Set(options.toolNames());
        const unknown = profile.tools.find((tool) => !known.has(tool));
        if (unknown !== undefined) {
          throw invalid("tool_not_found", `The runtime has no tool ${unknown}`, "profile.tools");
        }
      }
      const { key, gatewayKey } = await storeCall(() => options.keys.create(name, profile));
      return {
        result: { keyId: gatewayKey.keyId, key, gatewayKey },
        // Not before: the answer that shows the key once must not be redacted.
        afterResponse: () => options.protect(key),
      };
    },
    "gateway.key.list": () => Promise.resolve({ result: { keys: options.keys.list() } }),
    "gateway.key.revoke": async ({ keyId }) => {
      const result = await storeCall(() => options.keys.revoke(keyId));
      options.limiter?.forget(keyId);
      return { result };
    },
  };
}

async function checkWorkspace(path: string): Promise<void> {
  const field = "profile.workspace";
  if (!isAbsolute(path)) {
    throw invalid("workspace_unavailable", "The workspace must be an absolute path", field);
  }
  let isDirectory = false;
  try {
    isDirectory = (await Deno.stat(path)).isDirectory;
  } catch {
    // Unreadable or missing: the same answer as a file.
  }
  if (!isDirectory) {
    throw invalid("workspace_unavailable", `${path} is not a readable folder`, field);
  }
}

async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GatewayKeyError) {
      if (error.code === "gateway_key_not_found") {
        throw invalid("gateway_key_not_found", error.message, "keyId", error);
      }
      if (error.code === "gateway_keys_full") {
        throw invalid("gateway_keys_full", error.message, undefined, error);
      }
    }
    throw error;
  }
}

function invalid(
  reason: ErrorReasonCode,
  message: string,
  field?: string,
  cause?: unknown,
): RpcError {
  return new RpcError(
    RPC_ERROR_CODES.invalidParams,
    reason,
    message,
    field ? { field } : {},
    cause ? { cause } : undefined,
  );
}

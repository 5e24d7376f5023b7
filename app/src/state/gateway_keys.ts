/**
 * Settings › Gateway's state: the app keys (`gateway.key.list`, revoked ones included),
 * creating one (`gateway.key.create`, whose answer carries the key the only time it is
 * shown) and revoking one. Every function takes the RPC call as a parameter so tests run
 * without a server.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { GatewayKey, ParamsOf } from "@daedalus/client";
import { type CallFailure, callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** A key just made: shown once, until the user says they copied it. */
export interface CreatedKey {
  keyId: string;
  name: string;
  key: string;
}

/** What the section shows. */
export interface GatewayKeysView {
  status: "idle" | "loading" | "ready" | "failed";
  /** Newest first, as the runtime lists them. */
  keys: GatewayKey[];
  /** The key made last, until dismissed. */
  created: CreatedKey | null;
  /** A create is under way. */
  creating: boolean;
  /** Key ids waiting for `gateway.key.revoke`. */
  revoking: ReadonlySet<string>;
  /** The last failure (list, create or revoke), cleared by the next success. */
  error: CallFailure | null;
}

/** The state before the first load. */
export function emptyGatewayKeys(): GatewayKeysView {
  return {
    status: "idle",
    keys: [],
    created: null,
    creating: false,
    revoking: new Set(),
    error: null,
  };
}

/** The section's live state. */
export const gatewayKeysView: Signal<GatewayKeysView> = signal(emptyGatewayKeys());

const update = (change: Partial<GatewayKeysView>) => {
  gatewayKeysView.value = { ...gatewayKeysView.value, ...change };
};

let loadGeneration = 0;

/**
 * Loads (or refreshes) the keys; a refresh overtaken by a newer one is dropped.
 *
 * @param call the RPC call, the app's connection by default
 */
export async function loadGatewayKeys(call: RpcCall = liveCall): Promise<void> {
  const generation = ++loadGeneration;
  update({ status: "loading" });
  try {
    const { keys } = await call("gateway.key.list", {});
    if (generation !== loadGeneration) return;
    update({ keys, status: "ready", error: null });
  } catch (error) {
    if (generation !== loadGeneration) return;
    update({ status: "failed", error: callFailure(error) });
  }
}

/**
 * Creates a key and keeps it to show once; the list is read again.
 *
 * @param params checked form params (gateway_form.ts)
 * @param call the RPC call, the app's connection by default
 * @returns whether the runtime made the key
 */
export async function createGatewayKey(
  params: ParamsOf<"gateway.key.create">,
  call: RpcCall = liveCall,
): Promise<boolean> {
  update({ creating: true });
  try {
    const made = await call("gateway.key.create", params);
    update({
      creating: false,
      error: null,
      created: { keyId: made.keyId, name: made.gatewayKey.name, key: made.key },
      keys: [made.gatewayKey, ...gatewayKeysView.value.keys.filter((k) => k.keyId !== made.keyId)],
    });
    void loadGatewayKeys(call);
    return true;
  } catch (error) {
    update({ creating: false, error: callFailure(error) });
    return false;
  }
}

/** Forgets the key shown once (the user copied it, or chose not to). */
export function dismissCreatedKey(): void {
  update({ created: null });
}

/**
 * Revokes a key; the row shows the runtime's answer (its revokedAt).
 *
 * @param keyId the key
 * @param call the RPC call, the app's connection by default
 * @returns whether the runtime accepted it
 */
export async function revokeGatewayKey(keyId: string, call: RpcCall = liveCall): Promise<boolean> {
  const adding = new Set(gatewayKeysView.value.revoking).add(keyId);
  update({ revoking: adding });
  const settle = () => {
    const left = new Set(gatewayKeysView.value.revoking);
    left.delete(keyId);
    return left;
  };
  try {
    const { gatewayKey } = await call("gateway.key.revoke", { keyId });
    const keys = gatewayKeysView.value.keys.map((k) => (k.keyId === keyId ? gatewayKey : k));
    const created = gatewayKeysView.value.created?.keyId === keyId
      ? null
      : gatewayKeysView.value.created;
    update({ keys, created, revoking: settle(), error: null });
    return true;
  } catch (error) {
    update({ revoking: settle(), error: callFailure(error) });
    return false;
  }
}

/**
 * Settings › Health's state: the runtime's circuit breakers (`breaker.list`), read when
 * the section opens and again when a Run settles while it is open. The breakers live in
 * the runtime's memory, so the section shows only what the last answer said; a failed
 * read keeps the last list beside its reason. The RPC call is a parameter so tests run
 * without a server.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { BreakerSnapshot } from "@daedalus/client";
import { type CallFailure, callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** What the section shows. */
export interface BreakerHealthView {
  /** `loading` while a read is on its way; `failed` when the last one failed. */
  status: "idle" | "loading" | "ready" | "failed";
  /** The last answer's breakers; null before the first one. */
  breakers: readonly BreakerSnapshot[] | null;
  /** The last failure, cleared by the next success. */
  error: CallFailure | null;
}

/** The state before the first read. */
export function emptyBreakerHealth(): BreakerHealthView {
  return { status: "idle", breakers: null, error: null };
}

/** The section's live state. */
export const breakerHealth: Signal<BreakerHealthView> = signal(emptyBreakerHealth());

// Reads that overlap (a settled Run while the section opens) land in order: only the
// newest read's answer is kept, so an older, slower answer cannot hide a newer state.
let readCount = 0;

/**
 * Lists the breakers again.
 *
 * @param call the RPC call, the app's connection by default
 */
export async function loadBreakers(call: RpcCall = liveCall): Promise<void> {
  const read = ++readCount;
  breakerHealth.value = { ...breakerHealth.value, status: "loading" };
  try {
    const { breakers } = await call("breaker.list", {});
    if (read !== readCount) return;
    breakerHealth.value = { status: "ready", breakers, error: null };
  } catch (error) {
    if (read !== readCount) return;
    breakerHealth.value = { ...breakerHealth.value, status: "failed", error: callFailure(error) };
  }
}

/**
 * Which inbound WebSocket messages may run beside others on the same connection.
 * A read changes nothing a later request could depend on, so it needs no place in the
 * connection's serial lane: a slow read (a big `file.preview`, a provider's model
 * discovery) must not hold every request sent after it. Everything not listed here —
 * including `initialize`, notifications, malformed entries and methods added later —
 * keeps the serial lane, because wrongly serialising costs latency while wrongly
 * running concurrently could reorder a client's commands.
 *
 * @module
 */
import type { DecodedInbound, MethodName } from "@daedalus/protocol";

/**
 * Methods that only read (`provider.discover_models` asks the provider and remembers the
 * key it was given as a protected value, which no later request's outcome depends on).
 */
export const CONCURRENT_READ_METHODS: ReadonlySet<string> = new Set<MethodName>([
  "thread.get",
  "thread.list",
  "thread.search",
  "turn.list",
  "branch.list",
  "event.replay",
  "file.preview",
  "file.change.get",
  "process.read",
  "usage.read",
  "memory.list",
  "memory.get",
  "provider.list",
  "provider.discover_models",
  "model.list",
  "skill.list",
  "settings.read",
]);

/**
 * Whether every call of a decoded message is a read that needs no serial order.
 *
 * @param decoded the decoded message (a single call or a batch)
 * @returns true only when each entry is a well-formed request for a read method
 */
export function isConcurrentRead(decoded: DecodedInbound): boolean {
  return decoded.entries.every((entry) =>
    entry.ok && "id" in entry.call && CONCURRENT_READ_METHODS.has(entry.call.method)
  );
}

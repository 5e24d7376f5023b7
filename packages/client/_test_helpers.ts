/**
 * Helpers shared by the client's socket tests: bounded waits that fail with a message
 * (never a timing assertion), and a WebSocket constructor that records how it was called.
 *
 * @module
 */
import type { JournalEvent } from "@daedalus/protocol";
import type { ConnectionState, DaedalusClient } from "./daedalus_client.ts";
import type { WebSocketConstructor, WebSocketOptions } from "./handshake.ts";

/** Longest any test waits for something that should happen; only a hang guard. */
const HANG_GUARD_MS = 15_000;

/**
 * Races a promise against the hang guard so a broken client fails the test instead of
 * hanging it.
 *
 * @param promise what should settle
 * @param what a description for the failure message
 * @returns its value
 */
export async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Gave up waiting for ${what}`)), HANG_GUARD_MS);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Takes the next `count` events from an iterator.
 *
 * @param iterator a subscription
 * @param count how many
 * @param who names the consumer in the failure message
 * @returns the events
 */
export function take(
  iterator: AsyncIterator<JournalEvent>,
  count: number,
  who = "consumer",
): Promise<JournalEvent[]> {
  const events: JournalEvent[] = [];
  const run = async () => {
    while (events.length < count) {
      const next = await iterator.next();
      if (next.done) throw new Error(`${who}: stream ended after ${events.length} events`);
      events.push(next.value);
    }
    return events;
  };
  return within(run(), `${who} to receive ${count} events (got ${events.length} so far)`);
}

/**
 * Waits until the client is in a state.
 *
 * @param client the client
 * @param state the state
 */
export function stateReached(client: DaedalusClient, state: ConnectionState): Promise<void> {
  if (client.state === state) return Promise.resolve();
  return within(
    new Promise<void>((resolve) => {
      const stop = client.onStateChange((next) => {
        if (next !== state) return;
        stop();
        resolve();
      });
    }),
    `state ${state} (now ${client.state})`,
  );
}

/**
 * Records every state a client goes through.
 *
 * @param client the client
 * @returns the live list of states, starting with the current one
 */
export function recordStates(client: DaedalusClient): ConnectionState[] {
  const states: ConnectionState[] = [client.state];
  client.onStateChange((state) => states.push(state));
  return states;
}

/** One construction recorded by {@linkcode recordingWebSocket}. */
export interface SocketOpening {
  /** The URL. */
  url: string;
  /** The second constructor argument as given. */
  argument: string[] | WebSocketOptions | undefined;
}

/**
 * A WebSocket constructor that records each construction and can add headers (to play
 * a browser sending its cookie) or refuse the options object (to play a browser).
 *
 * @param options `cookie` to send, `browserLike` to refuse header options
 * @returns the constructor and the recorded openings
 */
export function recordingWebSocket(
  options: { cookie?: string; browserLike?: boolean } = {},
): { WebSocket: WebSocketConstructor; openings: SocketOpening[] } {
  const openings: SocketOpening[] = [];
  const Recording = function (url: string, argument?: string[] | WebSocketOptions) {
    openings.push({ url, argument });
    if (options.browserLike && argument !== undefined && !Array.isArray(argument)) {
      throw new TypeError("This WebSocket takes a protocol list only");
    }
    const protocols = Array.isArray(argument) ? argument : argument?.protocols ?? [];
    const headers = Array.isArray(argument) ? {} : { ...argument?.headers };
    if (options.cookie) headers.cookie = options.cookie;
    return new WebSocket(url, { headers, protocols });
  } as unknown as WebSocketConstructor;
  return { WebSocket: Recording, openings };
}

/**
 * The seqs of some events.
 *
 * @param events the events
 * @returns their seqs
 */
export function seqs(events: readonly JournalEvent[]): number[] {
  return events.map((event) => event.seq);
}

/**
 * `[from, from + 1, …, to]`.
 *
 * @param from first
 * @param to last
 * @returns the range
 */
export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * Client-side helpers of the end-to-end tests: a @daedalus/client WebSocket client that
 * records every event it delivers, waiting with a deadline, reading the whole journal,
 * and assertions on event streams.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  connect,
  type ConnectOptions,
  type DaedalusClient,
  type JournalEvent,
  type ParamsOf,
  RpcError,
} from "@daedalus/client";
import { WAIT_MS } from "./_harness.ts";

/** A WebSocket client that records every event it delivers, closed on dispose. */
export interface RecordingClient extends AsyncDisposable {
  /** The client. */
  readonly client: DaedalusClient;
  /** Every delivered event, in delivery order. */
  readonly events: JournalEvent[];
  /**
   * Waits for a delivered event.
   *
   * @param label what is awaited, for the failure message
   * @param predicate which event
   * @returns the first matching event
   */
  waitForEvent(label: string, predicate: (event: JournalEvent) => boolean): Promise<JournalEvent>;
}

/**
 * Connects with @daedalus/client from seq 0 and records every event.
 *
 * @param url the runtime's base URL
 * @param token the access token
 * @param options more connect options (a WebSocket constructor, …)
 * @returns the recording client
 */
export async function openClient(
  url: string,
  token: string,
  options: Partial<ConnectOptions> = {},
): Promise<RecordingClient> {
  const client = await connect({ url, token, lastSeq: 0, ...options });
  const events: JournalEvent[] = [];
  client.onEvent((event) => events.push(event));
  return {
    client,
    events,
    waitForEvent: (label, predicate) =>
      waitUntil(label, () => events.find(predicate), () => summarize(events)),
    [Symbol.asyncDispose]: () => client.close(),
  };
}

/**
 * Polls until `probe` returns a value other than undefined/false.
 *
 * @param label what is awaited, for the failure message
 * @param probe the check
 * @param context more detail for the failure message
 * @param timeoutMs how long to wait
 * @returns the probe's value
 * @throws {Error} naming what did not happen
 */
export async function waitUntil<T>(
  label: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  context: () => string = () => "",
  timeoutMs = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}\n${context()}`);
    await delay(10);
  }
}

/** Event types and seqs, for failure messages. */
export function summarize(events: readonly JournalEvent[]): string {
  return events.map((e) => `${e.seq} ${e.type} ${e.runId ?? ""}`).join("\n");
}

/**
 * Reads the whole journal through `event.replay`, paging while `hasMore`.
 *
 * @param client a WebSocket or HTTP client
 * @returns every committed event, in seq order
 */
export async function replayAll(
  client: Pick<DaedalusClient, "call">,
): Promise<JournalEvent[]> {
  const events: JournalEvent[] = [];
  let afterSeq = 0;
  for (;;) {
    const page = await client.call("event.replay", { afterSeq, limit: 500 });
    events.push(...page.events);
    if (!page.hasMore) return events;
    afterSeq = page.nextAfterSeq;
  }
}

/**
 * `turn.start` params for the scripted model.
 *
 * @param threadId the thread
 * @param content the user message
 * @param extra more params
 * @returns the params
 */
export function turnParams(
  threadId: string,
  content: string,
  extra: Partial<ParamsOf<"turn.start">> = {},
): ParamsOf<"turn.start"> {
  // full_access unless a test says otherwise: these tests run commands and sub-agents
  // without a user to ask (the default, `ask`, has its own tests: policy_gate_test.ts).
  return {
    threadId,
    content,
    providerId: "scripted",
    modelId: "scripted-model",
    executionPolicy: "full_access",
    ...extra,
  };
}

/** The run.settled events of a run. */
export function settlementsOf(events: readonly JournalEvent[], runId: string): JournalEvent[] {
  return events.filter((e) => e.type === "run.settled" && e.runId === runId);
}

/**
 * Asserts that seqs run 1, 2, 3, … with no gap and no duplicate.
 *
 * @param events the events
 * @param who whose events, for the message
 * @throws {Error} naming the first seq out of place
 */
export function assertContiguousFromOne(events: readonly JournalEvent[], who: string): void {
  events.forEach((event, index) => {
    if (event.seq !== index + 1) {
      throw new Error(`${who}: event #${index} has seq ${event.seq}, expected ${index + 1}`);
    }
  });
}

/** @param ms how long */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Asserts that a call is refused with a reason code.
 *
 * @param call the call
 * @param reasonCode the expected `data.reasonCode`
 * @returns the error
 * @throws {Error} naming what happened instead
 */
export async function assertRefused(
  call: Promise<unknown>,
  reasonCode: string,
): Promise<RpcError> {
  let outcome: unknown;
  try {
    outcome = await call;
  } catch (error) {
    if (error instanceof RpcError && error.data.reasonCode === reasonCode) return error;
    throw new Error(`expected a refusal with ${reasonCode}, got ${error}`, { cause: error });
  }
  throw new Error(`expected a refusal with ${reasonCode}, got ${JSON.stringify(outcome)}`);
}

/**
 * Asserts that a client delivered exactly the journal: every event once, in seq order.
 * The runtime may still be committing (an automatic thread title after a first run), so
 * the journal is read again until the client has caught up with what was read.
 *
 * @param recorder the client
 * @param reader any client to read the journal with
 * @param who whose events, for the message
 * @returns the journal as compared
 */
export async function assertDeliveredJournal(
  recorder: RecordingClient,
  reader: Pick<DaedalusClient, "call">,
  who: string,
): Promise<JournalEvent[]> {
  for (let read = 1;; read++) {
    const journal = await replayAll(reader);
    const latest = journal.at(-1)?.seq ?? 0;
    await waitUntil(
      `${who} to deliver up to seq ${latest}`,
      () => (recorder.client.lastSeq ?? 0) >= latest,
      () => summarize(recorder.events),
    );
    if (recorder.events.length > journal.length && read < 20) continue;
    assertContiguousFromOne(recorder.events, who);
    assert.deepEqual(recorder.events, journal, `${who} delivered exactly the journal`);
    return journal;
  }
}

/**
 * Leaves out automatic thread titles, which the runtime commits in the background after
 * a thread's first completed run.
 *
 * @param events journal events
 * @returns the events without `thread.renamed` of titleSource `auto`
 */
export function withoutAutoTitles(events: readonly JournalEvent[]): JournalEvent[] {
  return events.filter((e) => !(e.type === "thread.renamed" && e.payload.titleSource === "auto"));
}

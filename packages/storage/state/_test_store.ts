/**
 * Test fixture for the state store: a temp directory holding a real state.db, a
 * workspaces root and a project folder, a fake clock, and small helpers that name
 * what went wrong when an expectation fails.
 *
 * @module
 */
import assert from "node:assert/strict";
import { EventEnvelope, type JournalEvent, type RunConfig } from "@daedalus/protocol";
import { StateStore } from "./store.ts";
import { StoreError, type StoreErrorCode } from "./errors.ts";
import { createThread, type CreateThreadInput } from "./thread_writes.ts";
import { startTurn, type StartTurnInput } from "./turn_writes.ts";
import { contentHash } from "./run_config_parts.ts";

/** Where the fake clock starts: a fixed instant, so timestamps are predictable. */
export const FAKE_CLOCK_START = "2026-10-01T10:00:00.000Z";

/** A clock that moves only when read (by `stepMs`) or when told to. */
export class FakeClock {
  #now: number;
  #stepMs: number;

  /**
   * @param start the first instant it reports (ISO-8601)
   * @param stepMs how far each read moves it
   */
  constructor(start = FAKE_CLOCK_START, stepMs = 1_000) {
    this.#now = Date.parse(start);
    this.#stepMs = stepMs;
  }

  /** The clock function to hand to {@linkcode StateStore.open}; each call advances it. */
  readonly read = (): Date => {
    const now = new Date(this.#now);
    this.#now += this.#stepMs;
    return now;
  };

  /** The instant the next read will report, as ISO-8601. */
  peek(): string {
    return new Date(this.#now).toISOString();
  }

  /**
   * Moves the clock by `ms` (negative moves it back).
   *
   * @param ms milliseconds
   */
  advance(ms: number): void {
    this.#now += ms;
  }
}

/** An open store in a temp directory; disposing closes every store and removes the dir. */
export interface TestStore extends AsyncDisposable {
  /** The temp directory. */
  readonly dir: string;
  /** The state.db file. */
  readonly path: string;
  /** Where managed workspaces are made. */
  readonly workspacesRoot: string;
  /** An existing project folder. */
  readonly projectDir: string;
  /** The fake clock of {@linkcode TestStore.store}. */
  readonly clock: FakeClock;
  /** The store under test. */
  readonly store: StateStore;
  /** Opens another StateStore on the same file (closed on dispose). */
  openAnother(clock?: FakeClock): StateStore;
}

/**
 * Creates a temp directory with a fresh state.db and a workspaces root.
 *
 * @returns the fixture; use with `await using`
 */
export async function openTestStore(): Promise<TestStore> {
  const dir = await Deno.makeTempDir({ prefix: "daedalus_store_" });
  const workspacesRoot = `${dir}/workspaces`;
  const projectDir = `${dir}/project`;
  await Deno.mkdir(workspacesRoot);
  await Deno.mkdir(projectDir);
  const path = `${dir}/state.db`;
  const clock = new FakeClock();
  const opened: StateStore[] = [];
  const open = (c: FakeClock) => {
    const store = StateStore.open(path, { clock: c.read });
    opened.push(store);
    return store;
  };
  const store = open(clock);
  return {
    dir,
    path,
    workspacesRoot,
    projectDir,
    clock,
    store,
    openAnother: (another = clock) => open(another),
    [Symbol.asyncDispose]: async () => {
      for (const each of opened) each.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * Counts the rows of a table (or of `events` by default).
 *
 * @param store the store
 * @param table the table
 * @param where an optional SQL condition
 * @param params the condition's parameters
 * @returns the count
 */
export function countRows(
  store: StateStore,
  table = "events",
  where = "1",
  ...params: (string | number | null)[]
): number {
  const row = store.db.connection.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
    .get(...params);
  return Number(row?.n);
}

/**
 * Reads one row by a condition, failing when there is none.
 *
 * @param store the store
 * @param sql the SELECT statement
 * @param params its parameters
 * @returns the row
 */
export function readRow(
  store: StateStore,
  sql: string,
  ...params: (string | number | null)[]
): Record<string, unknown> {
  const row = store.db.connection.prepare(sql).get(...params);
  assert.ok(row, `expected a row from: ${sql} [${params.join(", ")}]`);
  return row as Record<string, unknown>;
}

/**
 * A predicate for `assert.throws`/`assert.rejects` that wants a StoreError with `code`.
 *
 * @param code the expected code
 * @returns the predicate
 */
export function storeErrorCode(code: StoreErrorCode): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof StoreError, `expected StoreError ${code}, got ${error}`);
    assert.equal(error.code, code, `expected code ${code}, got ${error.code}: ${error.message}`);
    return true;
  };
}

/**
 * Asserts every event parses as an {@linkcode EventEnvelope} and seqs strictly increase.
 *
 * @param events the events a write returned
 */
export function assertValidEvents(events: readonly JournalEvent[]): void {
  let previous = 0;
  for (const event of events) {
    const parsed = EventEnvelope.safeParse(event);
    assert.ok(
      parsed.success,
      `event ${event.type} #${event.seq} breaks the protocol: ${parsed.error?.message}`,
    );
    assert.ok(event.seq > previous, `seq ${event.seq} after ${previous} does not increase`);
    previous = event.seq;
  }
}

/**
 * The types of some events, in order.
 *
 * @param events the events
 * @returns their types
 */
export function eventTypes(events: readonly JournalEvent[]): string[] {
  return events.map((event) => event.type);
}

/**
 * Creates a thread with a managed workspace in the fixture's workspaces root.
 *
 * @param fixture the fixture
 * @param input more input
 * @returns the thread id and its default branch
 */
export async function seedThread(
  fixture: TestStore,
  input: Partial<CreateThreadInput> = {},
): Promise<{ threadId: string; branchId: string }> {
  const { result } = await createThread(fixture.store, {
    workspacesRoot: fixture.workspacesRoot,
    ...input,
  });
  return { threadId: result.thread.id, branchId: result.thread.defaultBranchId };
}

/**
 * A valid RunConfig with small parts and their true hashes.
 *
 * @param overrides fields to replace; pass new part contents to get a config whose
 *   `parts` name them
 * @returns the config
 */
export function testRunConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  const text = overrides.identity?.text ?? "You are a test agent.";
  const tools = overrides.tools ??
    [{
      name: "read",
      description: "Reads a file",
      parameters: { type: "object" },
      mutating: false,
    }];
  const identity = overrides.identity ??
    { id: "test-identity", version: 1, source: "test", text, hash: contentHash(text) };
  const skills = overrides.skills ?? [];
  return {
    providerId: "test-provider",
    modelId: "test-model",
    contextWindow: 65_536,
    supportsTools: true,
    executionPolicy: "full_access",
    reasoningEffort: null,
    ...overrides,
    tools,
    identity,
    skills,
    parts: {
      toolSchemas: contentHash(JSON.stringify(tools)),
      identity: contentHash(JSON.stringify(identity)),
      skills: contentHash(JSON.stringify(skills)),
    },
  };
}

/** The RunConfig tests freeze on their runs. */
export const TEST_RUN_CONFIG: RunConfig = testRunConfig();

/**
 * Starts a turn with test defaults.
 *
 * @param store the store
 * @param threadId the thread
 * @param input overrides
 * @returns the started turn's ids
 */
export function seedTurn(
  store: StateStore,
  threadId: string,
  input: Partial<StartTurnInput> = {},
): { turnId: string; runId: string; branchId: string } {
  const { result } = startTurn(store, {
    threadId,
    content: "hello",
    providerId: "test-provider",
    modelId: "test-model",
    runConfig: TEST_RUN_CONFIG,
    ...input,
  });
  return { turnId: result.turnId, runId: result.runId, branchId: result.branchId };
}

/**
 * Installs a temp trigger that aborts the matching insert, to prove a write is one
 * transaction; returns a function that removes it.
 *
 * @param store the store
 * @param table the table whose insert fails
 * @param when the trigger's condition on NEW
 * @returns the remover
 */
export function failInsert(store: StateStore, table: string, when: string): () => void {
  const name = `test_fail_${table}`;
  store.db.connection.exec(
    `CREATE TEMP TRIGGER ${name} BEFORE INSERT ON main.${table} WHEN ${when}
     BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
  );
  return () => store.db.connection.exec(`DROP TRIGGER temp.${name}`);
}

/**
 * Rebuild equals live: a long seeded random sequence of store writes, then the
 * projections are cleared and replayed from the journal (in place, and into a fresh
 * file) and must come out identical. Rerun a failure with DAEDALUS_TEST_SEED=<seed>.
 */
import assert from "node:assert/strict";
import type { DatabaseSync } from "node:sqlite";
import {
  type JournalEvent,
  newId,
  type ProcessRecord,
  type RunStatus,
  type SettledStatus,
} from "@daedalus/protocol";
import { openStateDatabase } from "./database.ts";
import { switchToFallback } from "./model_fallback_writes.ts";
import { appendEvent, iterateJournal } from "./journal.ts";
import { applyEvent, clearProjections, PROJECTION_TABLES } from "./projections.ts";
import { StoreError } from "./errors.ts";
import type { StateStore } from "./store.ts";
import {
  createThread,
  type CreateThreadInput,
  renameThread,
  setThreadArchived,
} from "./thread_writes.ts";
import { startTurn, type StartTurnInput } from "./turn_writes.ts";
import {
  activateRun,
  appendItemDelta,
  completeItem,
  settleRun,
  settleToolCall,
  startItem,
  steerRun,
} from "./run_writes.ts";
import {
  recordCompaction,
  recordModelInput,
  recordModelResponse,
  recordProcess,
} from "./run_facts.ts";
import { requestApproval, resolveApproval } from "./approval_writes.ts";
import { deleteThread } from "./thread_delete.ts";
import { preloadCarriedParts } from "./maintenance.ts";
import { verifyJournal } from "./journal_verify.ts";
import { assertValidEvents, openTestStore, testRunConfig, type TestStore } from "./_test_store.ts";

const OPERATIONS = 2_000;
const GATEWAY_SOURCE = {
  kind: "gateway",
  keyId: `gwkey_${"ab".repeat(16)}`,
  keyName: "Dify app",
} as const;
const THREADS = 20;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ThreadModel {
  id: string;
  archived: boolean;
  replay?: CreateThreadInput;
}

interface CallModel {
  ordinal: number;
  finished: boolean;
}

interface RunModel {
  id: string;
  threadId: string;
  status: RunStatus;
  streaming: string[];
  toolCalls: string[];
  processes: ProcessRecord[];
  calls: CallModel[];
  nextStep: number;
  revision: number;
  revisionSent: number;
  replay?: StartTurnInput;
  /** The pending approval while the Run is waiting. */
  approvalId?: string;
}

const TERMINAL = new Set<RunStatus>(["completed", "failed", "cancelled"]);
const TITLES = ["Plan", "Refactor", "Bug hunt", "Notes", "Plan"];
const WORDS = ["alpha ", "beta", " gamma", "δέλτα ", "\n", "tool", "ok", "🙂"];
const FAILURES = ["agent_error", "runtime_shutdown", "provider_timeout", "context_budget_exceeded"];

class Simulation {
  readonly threads: ThreadModel[] = [];
  readonly runs: RunModel[] = [];
  readonly counts = new Map<string, number>();
  /** Threads deleted so far. */
  deletions = 0;
  /** Makes every clientRequestId unique (list lengths shrink when a thread is deleted). */
  #requests = 0;
  readonly #fixture: TestStore;
  readonly #store: StateStore;
  readonly #random: () => number;

  constructor(fixture: TestStore, random: () => number) {
    this.#fixture = fixture;
    this.#store = fixture.store;
    this.#random = random;
  }

  #int(n: number): number {
    return Math.floor(this.#random() * n);
  }

  #chance(p: number): boolean {
    return this.#random() < p;
  }

  #pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[this.#int(items.length)];
  }

  #record(name: string, events: readonly JournalEvent[]): true {
    assertValidEvents(events);
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    return true;
  }

  #expectRefusal(name: string, code: string, fn: () => unknown): true {
    assert.throws(fn, (error) => error instanceof StoreError && error.code === code, name);
    return this.#record(`${name} refused`, []);
  }

  #active(): RunModel[] {
    return this.runs.filter((run) => run.status === "running");
  }

  /** Runs one random operation; false when the chosen one had nothing to act on. */
  async step(): Promise<boolean> {
    if (this.#chance(0.05)) this.#fixture.clock.advance(this.#int(6 * 3_600_000));
    if (this.threads.length < THREADS && (this.threads.length < 3 || this.#chance(0.04))) {
      return await this.createThread();
    }
    const ops: (() => boolean | Promise<boolean>)[] = [
      () => this.createThread(),
      () => this.rename(),
      () => this.archive(),
      () => this.startTurn(),
      () => this.startTurn(),
      () => this.activate(),
      () => this.startMessage(),
      () => this.delta(),
      () => this.delta(),
      () => this.delta(),
      () => this.completeMessage(),
      () => this.startToolCall(),
      () => this.settleToolCall(),
      () => this.askApproval(),
      () => this.answerApproval(),
      () => this.updateProcess(),
      () => this.steer(),
      () => this.modelInput(),
      () => this.modelInput(),
      () => this.modelResponse(),
      () => this.modelResponse(),
      () => this.fallback(),
      () => this.compaction(),
      () => this.settle(),
      () => this.deleteThread(),
    ];
    return await ops[this.#int(ops.length)]();
  }

  async createThread(): Promise<boolean> {
    const replayable = this.threads.filter((t) => t.replay);
    const retry = this.#chance(0.2) ? this.#pick(replayable) : undefined;
    if (retry?.replay) {
      const { result, events } = await createThread(this.#store, retry.replay);
      assert.deepEqual([result.thread.id, result.created, events.length], [retry.id, false, 0]);
      return this.#record("createThread replay", events);
    }
    if (this.threads.length >= THREADS) return false;
    const input: CreateThreadInput = {
      workspacesRoot: this.#fixture.workspacesRoot,
      title: this.#chance(0.5) ? this.#pick(TITLES) : null,
      clientRequestId: this.#chance(0.5) ? `thread-req-${this.#requests++}` : undefined,
      workspace: this.#chance(0.3) ? { rootUri: this.#fixture.projectDir } : undefined,
      // Some threads come through the gateway: their source must survive the rebuild.
      source: this.#chance(0.3) ? GATEWAY_SOURCE : undefined,
    };
    const { result, events } = await createThread(this.#store, input);
    this.threads.push({
      id: result.thread.id,
      archived: false,
      replay: input.clientRequestId ? input : undefined,
    });
    return this.#record("createThread", events);
  }

  rename(): boolean {
    const thread = this.#pick(this.threads);
    if (!thread) return false;
    const title = `${this.#pick(TITLES)}${this.#chance(0.5) ? "" : ` ${this.#int(3)}`}`;
    const source = this.#chance(0.5) ? "user" : "auto";
    return this.#record("rename", renameThread(this.#store, thread.id, title, source).events);
  }

  archive(): boolean {
    const thread = this.#pick(this.threads);
    if (!thread) return false;
    const busy = this.runs.some((r) =>
      r.threadId === thread.id &&
      (r.status === "queued" || r.status === "running" || r.status === "waiting")
    );
    if (!thread.archived && busy) {
      return this.#expectRefusal(
        "archive",
        "thread_busy",
        () => setThreadArchived(this.#store, thread.id, true),
      );
    }
    const { result, events } = setThreadArchived(this.#store, thread.id, !thread.archived);
    assert.equal(result.changed, true);
    thread.archived = !thread.archived;
    return this.#record(thread.archived ? "archive" : "unarchive", events);
  }

  /** Rarely: a deletion erases a thread mid-sequence; the rebuild must agree with it. */
  deleteThread(): boolean {
    if (!this.#chance(0.25)) return false;
    const thread = this.#pick(this.threads);
    if (!thread) return false;
    const busy = this.runs.some((r) =>
      r.threadId === thread.id &&
      (r.status === "queued" || r.status === "running" || r.status === "waiting")
    );
    const clientRequestId = `delete-${this.deletions}`;
    if (busy) {
      return this.#expectRefusal(
        "deleteThread",
        "thread_busy",
        () => deleteThread(this.#store, { threadId: thread.id, clientRequestId }),
      );
    }
    const { result, events } = deleteThread(this.#store, { threadId: thread.id, clientRequestId });
    assert.equal(result.deleted, true);
    this.deletions++;
    this.threads.splice(this.threads.indexOf(thread), 1);
    for (let i = this.runs.length - 1; i >= 0; i--) {
      if (this.runs[i].threadId === thread.id) this.runs.splice(i, 1);
    }
    return this.#record("deleteThread", events);
  }

  startTurn(): boolean {
    const replayable = this.runs.filter((r) => r.replay);
    const retry = this.#chance(0.1) ? this.#pick(replayable) : undefined;
    if (retry?.replay) {
      const { result, events } = startTurn(this.#store, retry.replay);
      assert.deepEqual([result.runId, result.created], [retry.id, false]);
      return this.#record("startTurn replay", events);
    }
    const thread = this.#pick(this.threads);
    if (!thread) return false;
    const input: StartTurnInput = {
      threadId: thread.id,
      content: `${this.#pick(WORDS)}${this.#int(1000)}`,
      providerId: this.#pick(["local", "remote"]) ?? "local",
      modelId: this.#pick(["small", "large"]) ?? "small",
      clientRequestId: this.#chance(0.4) ? `turn-req-${this.#requests++}` : undefined,
      executionPolicy: this.#pick(["read_only", "workspace_write", "full_access"] as const),
      // A few skills catalogs: some turns bring a new part, most refer to a stored one.
      runConfig: testRunConfig({
        contextWindow: 1024 + this.#int(100),
        skills: [{ name: `skill-${this.#int(3)}`, description: "d", location: "/s/SKILL.md" }],
      }),
    };
    if (thread.archived) {
      return this.#expectRefusal(
        "startTurn",
        "thread_archived",
        () => startTurn(this.#store, input),
      );
    }
    const { result, events } = startTurn(this.#store, input);
    this.runs.push({
      id: result.runId,
      threadId: thread.id,
      status: "queued",
      streaming: [],
      toolCalls: [],
      processes: [],
      calls: [],
      nextStep: 1,
      revision: 1,
      revisionSent: 0,
      replay: input.clientRequestId ? input : undefined,
    });
    return this.#record("startTurn", events);
  }

  activate(): boolean {
    const run = this.#pick(this.runs.filter((r) => r.status === "queued" || this.#chance(0.1)));
    if (!run) return false;
    const { result, events } = activateRun(this.#store, run.id);
    assert.equal(result, run.status === "queued", `activate ${run.status}`);
    if (result) run.status = "running";
    return this.#record(result ? "activate" : "activate no-op", events);
  }

  startMessage(): boolean {
    const run = this.#pick(this.#active());
    if (!run) return false;
    const { result, events } = startItem(this.#store, run.id, {
      kind: "message",
      role: "assistant",
      status: this.#chance(0.85) ? "streaming" : "completed",
      content: this.#chance(0.3) ? "prefix " : undefined,
    });
    if (result.status === "streaming") run.streaming.push(result.id);
    return this.#record("startItem message", events);
  }

  delta(): boolean {
    const run = this.#pick(this.#active().filter((r) => r.streaming.length > 0));
    const itemId = run && this.#pick(run.streaming);
    if (!itemId) return false;
    const field = this.#chance(0.3) ? "reasoning" : "content";
    const text = `${this.#pick(WORDS)}${this.#int(10)}`;
    return this.#record("delta", appendItemDelta(this.#store, itemId, text, field).events);
  }

  completeMessage(): boolean {
    const run = this.#pick(this.#active().filter((r) => r.streaming.length > 0));
    const itemId = run?.streaming.shift();
    if (!run || !itemId) return false;
    const { events } = completeItem(this.#store, itemId, {
      status: this.#chance(0.9) ? "completed" : "failed",
      content: this.#chance(0.2) ? "final answer" : undefined,
      data: this.#chance(0.5) ? { finish: "stop" } : undefined,
    });
    return this.#record("completeItem", events);
  }

  startToolCall(): boolean {
    const run = this.#pick(this.#active());
    if (!run) return false;
    const { result, events } = startItem(this.#store, run.id, {
      kind: "tool_call",
      role: "assistant",
      status: "running",
      data: { toolId: this.#pick(["read", "write", "process_start"]), callId: `c${this.#int(99)}` },
    });
    run.toolCalls.push(result.id);
    return this.#record("startItem tool_call", events);
  }

  askApproval(): boolean {
    const run = this.#pick(this.#active().filter((r) => r.toolCalls.length > 0));
    const callId = run?.toolCalls[0];
    if (!run || !callId) return false;
    const { result, events } = requestApproval(this.#store, {
      runId: run.id,
      toolCallItemId: callId,
      toolId: "process_start",
      summary: `Run step ${this.#int(100)}`,
      target: this.#chance(0.5) ? "rm -rf build" : null,
      risk: "process",
      reasonCode: this.#pick(["permission_ask", "high_risk_command"] as const) ?? "permission_ask",
    });
    run.status = "waiting";
    run.approvalId = result.approvalId;
    return this.#record("requestApproval", events);
  }

  answerApproval(): boolean {
    const run = this.#pick(this.runs.filter((r) => r.status === "waiting"));
    const approvalId = run?.approvalId;
    if (!run || !approvalId) return false;
    const decision = this.#chance(0.5) ? "allow_once" : "deny";
    const message = this.#chance(0.5) ? `not now ${this.#int(10)}` : undefined;
    const { events } = resolveApproval(this.#store, { approvalId, decision, message });
    // A denied call is settled by the answer; an allowed one still runs.
    if (decision === "deny") run.toolCalls.shift();
    run.status = "running";
    run.approvalId = undefined;
    return this.#record(`resolveApproval ${decision}`, events);
  }

  settleToolCall(): boolean {
    const run = this.#pick(this.#active().filter((r) => r.toolCalls.length > 0));
    const callId = run?.toolCalls.shift();
    if (!run || !callId) return false;
    const status = this.#pick(["completed", "completed", "failed", "cancelled"] as const) ??
      "completed";
    const withFile = this.#chance(0.4);
    const process = this.#chance(0.3) ? this.#newProcess(run, callId) : null;
    const { events } = settleToolCall(
      this.#store,
      callId,
      { status, data: { durationMs: this.#int(500) } },
      { status, content: `result ${this.#int(100)}`, data: { truncated: this.#chance(0.2) } },
      (context, scope) => {
        if (withFile) {
          context.append({
            type: "file.change_recorded",
            ...scope,
            itemId: callId,
            payload: {
              toolCallItemId: callId,
              path: `src/file_${this.#int(5)}.ts`,
              operation: this.#chance(0.5) ? "write" : "edit",
              additions: this.#int(40),
              deletions: this.#int(40),
            },
          });
        }
        if (process) {
          context.append({ type: "process.recorded", ...scope, payload: { process } });
        }
      },
    );
    if (process) run.processes.push(process);
    return this.#record("settleToolCall", events);
  }

  #newProcess(run: RunModel, itemId: string): ProcessRecord {
    return {
      processId: newId("process"),
      threadId: run.threadId,
      runId: run.id,
      itemId,
      command: `make target_${this.#int(9)}`,
      cwd: this.#fixture.projectDir,
      state: "running",
      pid: 1000 + this.#int(30000),
      exitCode: null,
      errorCode: null,
      background: this.#chance(0.5),
      pty: this.#chance(0.2),
      startedAt: this.#fixture.clock.peek(),
      finishedAt: null,
    };
  }

  updateProcess(): boolean {
    const run = this.#pick(this.runs.filter((r) => r.processes.length > 0));
    const process = run && this.#pick(run.processes);
    if (!run || !process) return false;
    const exited = this.#chance(0.7);
    process.state = exited ? "exited" : "terminated";
    process.exitCode = exited ? this.#int(3) : null;
    process.errorCode = exited ? null : "terminated";
    process.finishedAt = this.#fixture.clock.peek();
    return this.#record("recordProcess", recordProcess(this.#store, { ...process }).events);
  }

  steer(): boolean {
    const run = this.#pick(this.runs);
    if (!run) return false;
    if (TERMINAL.has(run.status)) {
      return this.#expectRefusal(
        "steer",
        "run_not_active",
        () => steerRun(this.#store, run.id, "late"),
      );
    }
    const options = this.#chance(0.3) ? { clientRequestId: `steer-${this.#int(1e6)}` } : {};
    return this.#record("steer", steerRun(this.#store, run.id, "steer text", options).events);
  }

  modelInput(): boolean {
    const run = this.#pick(this.#active());
    if (!run) return false;
    const callOrdinal = run.calls.length + 1;
    const purpose =
      this.#pick(["execution", "execution", "compression", "completion_check"] as const) ??
        "execution";
    const stepOrdinal = purpose === "execution" ? run.nextStep++ : null;
    const fresh = run.revisionSent < run.revision;
    const { events } = recordModelInput(this.#store, run.id, {
      callOrdinal,
      stepOrdinal,
      purpose,
      contextRevision: fresh ? { revision: run.revision, itemCount: this.#int(50) } : null,
      stepInput: { revision: run.revision, budgetTokens: 1000 * this.#int(64) },
    });
    run.revisionSent = run.revision;
    run.calls.push({ ordinal: callOrdinal, finished: false });
    return this.#record("modelInput", events);
  }

  modelResponse(): boolean {
    const run = this.#pick(this.runs.filter((r) => r.calls.some((c) => !c.finished)));
    const call = run?.calls.find((c) => !c.finished);
    if (!run || !call) return false;
    const outcome =
      this.#pick(["completed", "completed", "completed", "failed", "cancelled"] as const) ??
        "completed";
    const input = this.#int(5000);
    const output = this.#int(2000);
    const usage = this.#chance(0.85)
      ? {
        inputTokens: input,
        cachedInputTokens: this.#chance(0.5) ? this.#int(input + 1) : null,
        outputTokens: output,
        reasoningOutputTokens: this.#chance(0.5) ? this.#int(output + 1) : null,
        totalTokens: input + output,
      }
      : null;
    const { events } = recordModelResponse(this.#store, run.id, {
      callOrdinal: call.ordinal,
      outcome,
      usage,
      responseModelId: this.#chance(0.8) ? "model-2026-10" : null,
      requestId: this.#chance(0.8) ? `req_${this.#int(1e9)}` : null,
      reasonCode: outcome === "completed" ? undefined : this.#pick(FAILURES),
      activityDate: this.#fixture.clock.peek().slice(0, 10),
    });
    call.finished = true;
    return this.#record(`modelResponse ${outcome}${usage ? "" : " no usage"}`, events);
  }

  /** A failed call moves a running Run to its fallback model (at most once per Run). */
  fallback(): boolean {
    const run = this.#pick(this.#active().filter((r) => r.calls.some((c) => !c.finished)));
    const call = run?.calls.find((c) => !c.finished);
    if (!run || !call) return false;
    const { result, events } = switchToFallback(this.#store, run.id, {
      callOrdinal: call.ordinal,
      outcome: "failed",
      usage: null,
      responseModelId: null,
      requestId: null,
      reasonCode: "provider_server",
      activityDate: this.#fixture.clock.peek().slice(0, 10),
    }, {
      fromProviderId: "deepseek",
      fromModelId: "deepseek-chat",
      toProviderId: "local",
      toModelId: "fallback-model",
      reasonCode: "provider_server",
    });
    if (!result) {
      assert.equal(events.length, 0, "a refused fallback must write nothing");
      return this.#record("fallback again refused", events);
    }
    call.finished = true;
    return this.#record("fallback", events);
  }

  compaction(): boolean {
    const run = this.#pick(this.#active());
    if (!run) return false;
    run.revision += 1;
    return this.#record("compaction", recordCompaction(this.#store, run.id, run.revision).events);
  }

  settle(): boolean {
    const run = this.#pick(this.runs.filter((r) => !TERMINAL.has(r.status) || this.#chance(0.15)));
    if (!run) return false;
    const status = this.#pick(["completed", "completed", "failed", "cancelled"] as const) ??
      "completed";
    const reason = status === "completed"
      ? null
      : status === "cancelled"
      ? "cancelled"
      : this.#pick(FAILURES) ?? null;
    // A failed run carries the provider's words; a rebuild must derive them from the journal.
    const said = status === "failed" ? `The provider answered: ${reason} for ${run.id}` : null;
    const { result, events } = settleRun(this.#store, run.id, status, reason, said);
    const wasTerminal = TERMINAL.has(run.status);
    assert.equal(result.settled, !wasTerminal, `settle of a ${run.status} run`);
    if (wasTerminal) {
      assert.equal(result.status, run.status);
      return this.#record("settle no-op", events);
    }
    run.status = status as SettledStatus;
    run.streaming = [];
    run.toolCalls = [];
    return this.#record(`settle ${status}`, events);
  }
}

type Snapshot = Record<string, Record<string, unknown>[]>;

function snapshot(connection: DatabaseSync, tables: readonly string[]): Snapshot {
  const out: Snapshot = {};
  for (const table of tables) {
    const columns = connection.prepare(`PRAGMA table_info(${table})`).all()
      .map((row) => `"${String(row.name)}"`);
    out[table] = connection.prepare(`SELECT * FROM ${table} ORDER BY ${columns.join(", ")}`)
      .all().map((row) => ({ ...row }));
  }
  return out;
}

function assertSameSnapshots(actual: Snapshot, expected: Snapshot, what: string): void {
  for (const table of Object.keys(expected)) {
    assert.equal(actual[table].length, expected[table].length, `${what}: ${table} row count`);
    assert.deepEqual(actual[table], expected[table], `${what}: ${table} rows differ`);
  }
}

function assertSettlementInvariants(store: StateStore, sim: Simulation): void {
  const connection = store.db.connection;
  for (const run of sim.runs) {
    const settled = connection.prepare(
      "SELECT count(*) AS n FROM events WHERE event_type = 'run.settled' AND run_id = ?",
    ).get(run.id)?.n;
    assert.equal(settled, TERMINAL.has(run.status) ? 1 : 0, `run.settled rows of ${run.id}`);
    const row = connection.prepare("SELECT status FROM runs WHERE id = ?").get(run.id);
    assert.equal(row?.status, run.status, `status of ${run.id}`);
    if (!TERMINAL.has(run.status)) continue;
    const open = connection.prepare(
      "SELECT count(*) AS n FROM items WHERE run_id = ? AND status IN ('streaming', 'running')",
    ).get(run.id)?.n;
    assert.equal(open, 0, `settled run ${run.id} still has active items`);
  }
}

async function rebuildEqualsLive(seed: number): Promise<Simulation> {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const sim = new Simulation(fixture, seededRandom(seed));
  let done = 0;
  while (done < OPERATIONS) if (await sim.step()) done += 1;
  assertSettlementInvariants(store, sim);

  const connection = store.db.connection;
  const live = snapshot(connection, PROJECTION_TABLES);
  for (const table of PROJECTION_TABLES) {
    assert.ok(live[table].length > 0, `the sequence never wrote to ${table}`);
  }

  store.db.transaction(() => {
    clearProjections(connection);
    for (const table of PROJECTION_TABLES) {
      assert.equal(connection.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n, 0);
    }
    preloadCarriedParts(connection, connection);
    for (const event of iterateJournal(connection)) applyEvent(connection, event);
  });
  assertSameSnapshots(snapshot(connection, PROJECTION_TABLES), live, "rebuilt in place");
  assert.deepEqual(connection.prepare("PRAGMA foreign_key_check").all(), []);

  const verified = verifyJournal(connection);
  assert.equal(
    verified.ok,
    true,
    `the chain after ${sim.deletions} deletion(s): ${verified.failure?.message}`,
  );

  const fresh = openStateDatabase(`${fixture.dir}/replayed.db`);
  try {
    fresh.transaction(() => {
      // Erased rows are not replayed: the parts only they carried come from the deletions.
      preloadCarriedParts(connection, fresh.connection);
      for (const event of iterateJournal(connection)) {
        const { type, threadId, branchId, turnId, runId, itemId, payload } = event;
        const draft = { type, threadId, branchId, turnId, runId, itemId, payload };
        appendEvent(fresh.connection, draft as Parameters<typeof appendEvent>[1], event.timestamp);
      }
    });
    // The fresh journal lacks the erased rows (other seqs, hashes): compared only without them.
    const tables = sim.deletions === 0 ? ["events", ...PROJECTION_TABLES] : PROJECTION_TABLES;
    assertSameSnapshots(
      snapshot(fresh.connection, tables),
      snapshot(connection, tables),
      "replayed into a fresh file",
    );
  } finally {
    fresh.close();
  }
  return sim;
}

Deno.test("rebuilding the projections from the journal reproduces the live projections", async () => {
  const fromEnv = Deno.env.get("DAEDALUS_TEST_SEED");
  const seed = fromEnv ? Number(fromEnv) : crypto.getRandomValues(new Uint32Array(1))[0];
  try {
    const sim = await rebuildEqualsLive(seed);
    const expected = [
      "createThread",
      "startTurn",
      "delta",
      "settleToolCall",
      "modelResponse completed",
      "fallback",
      "settle cancelled",
      "deleteThread",
    ];
    for (const name of expected) {
      assert.ok((sim.counts.get(name) ?? 0) > 0, `seed ${seed} never ran ${name}`);
    }
  } catch (error) {
    console.error(`rebuild test failed; rerun with DAEDALUS_TEST_SEED=${seed}`);
    throw new Error(`Rebuild test failed with seed ${seed}`, { cause: error });
  }
});

Deno.test("a rebuild from the journal restores a gateway thread's source and the owner's null", async () => {
  await using fixture = await openTestStore();
  const root = fixture.workspacesRoot;
  const gateway = await createThread(fixture.store, {
    workspacesRoot: root,
    source: GATEWAY_SOURCE,
  });
  const own = await createThread(fixture.store, { workspacesRoot: root });
  renameThread(fixture.store, gateway.result.thread.id, "renamed", "user");
  const connection = fixture.store.db.connection;
  const sources = () =>
    connection.prepare("SELECT id, source_json FROM threads ORDER BY created_at, id").all()
      .map((row) => [row.id, row.source_json]);
  const live = sources();
  assert.deepEqual(live, [
    [gateway.result.thread.id, JSON.stringify(GATEWAY_SOURCE)],
    [own.result.thread.id, null],
  ]);
  fixture.store.db.transaction(() => {
    clearProjections(connection);
    assert.deepEqual(sources(), [], "the projections were not cleared");
    for (const event of iterateJournal(connection)) applyEvent(connection, event);
  });
  assert.deepEqual(sources(), live, "the rebuild lost or changed a thread's source");
});

/**
 * The golden-trace cases as runnable scripts. `scripts/golden_record.ts` runs them
 * against a live runtime (scripted provider, echo tool) and writes what crossed the
 * wire to protocol/golden-trace.json; `golden_live_test.ts` runs them again and
 * checks the live server still answers with the same structure.
 */
import { messageText, type ProviderRequest, type ScriptedResponse } from "@daedalus/runtime";
import { PROTOCOL_VERSION } from "@daedalus/protocol";
import type { WireSession } from "./wire_session.ts";

/** A case: its name, what it shows, and the script that drives one session. */
export interface LiveCase {
  name: string;
  description: string;
  run(session: WireSession): Promise<void>;
}

/** The provider and model the cases use. */
export const MODEL = { providerId: "scripted", modelId: "scripted-model" };

/** What the scripted model answers, keyed by the conversation so far. */
/** Model calls of the `run.resume` case so far (its first fails, the resumed one answers). */
let resumeAttempts = 0;

export function goldenScript(request: ProviderRequest): ScriptedResponse {
  const last = [...request.messages].reverse().find((m) => m.role === "user");
  const lastUser = last ? messageText(last.content) : "";
  const sawTool = request.messages.at(-1)?.role === "tool";
  if (lastUser.startsWith("Summarize")) {
    return sawTool ? { text: ["The notes say: ", "ship the beta."] } : {
      text: ["Let me read ", "the notes."],
      toolCalls: [{ name: "echo", arguments: { text: "# Notes: ship the beta" } }],
    };
  }
  if (lastUser.startsWith("Investigate")) return investigate(request);
  if (lastUser.startsWith("Fix the greeting")) return fixGreeting(request);
  if (lastUser.startsWith("Remember")) {
    return request.messages.at(-1)?.role === "tool" ? { text: ["I will remember that."] } : {
      toolCalls: [{
        name: "memory",
        arguments: { action: "save", kind: "preference", content: "Prefers short answers" },
      }],
    };
  }
  if (lastUser.startsWith("Check the build")) return checkBuild(request);
  if (lastUser.startsWith("Resume me")) {
    // The first Run fails before answering; its resumption (the same message) answers.
    resumeAttempts++;
    return resumeAttempts === 1
      ? { error: { category: "invalid_request", message: "not now" } }
      : { text: ["Resumed and done."] };
  }
  if (lastUser.startsWith("Keep going")) {
    return sawTool ? { text: ["Done."] } : {
      toolCalls: [{ name: "echo", arguments: { text: "step" } }],
    };
  }
  if (lastUser.startsWith("Fail over")) {
    return request.modelId === MODEL.modelId
      ? { error: { category: "server", message: "overloaded" } }
      : { text: ["The fallback ", "answered."] };
  }
  if (lastUser.startsWith("Write a long story")) {
    return { text: ["Once upon a time", " there was", " a very", " long story"], delayMs: 400 };
  }
  return { text: ["OK."] };
}

/**
 * The mode of a turn whose tools should just run: since the default preset became `ask`,
 * a command or a custom tool would wait for approval. Cases about permissions leave it out.
 */
export const FULL_ACCESS = { executionPolicy: "full_access" } as const;

/** A model with a small window, so a few tool results force a compaction. */
export const SMALL_MODEL = { providerId: "scripted", modelId: "scripted-small" };
/**
 * The small model's window, in tokens: room for the tool schemas every call carries
 * (~9,170 tokens for the built-in tools and echo, counted in the context estimate) and
 * ~4,500 more, where the recorded case's compactions happen (13,300–14,100 all give its
 * shape).
 */
export const SMALL_WINDOW = 13_700;

/** Reasoning, then three steps of two tool calls each, then an answer; summaries on request. */
function investigate(request: ProviderRequest): ScriptedResponse {
  if (request.tools.length === 0) return { text: ["Checked logs 1–6; all reported OK."] };
  const lastTool = [...request.messages].reverse().find((m) => m.role === "tool");
  const step = lastTool ? Number(/step (\d)/.exec(messageText(lastTool.content))?.[1] ?? 0) : 0;
  if (step >= 3) return { text: ["All six logs are fine."] };
  const next = step + 1;
  const body = (n: number) => `step ${next} log ${n}: ` + "all systems nominal. ".repeat(20);
  return {
    reasoning: next === 1 ? ["I should read ", "the logs in pairs."] : [],
    text: [`Reading logs ${next * 2 - 1} and ${next * 2}.`],
    toolCalls: [
      { name: "echo", arguments: { text: body(next * 2 - 1) } },
      { name: "echo", arguments: { text: body(next * 2) } },
    ],
  };
}

/** Write a file, read it, fix it with edit, then run a command on it and wait. */
function fixGreeting(request: ProviderRequest): ScriptedResponse {
  const tools = request.messages.filter((m) => m.role === "tool").length;
  const steps: ScriptedResponse[] = [
    { toolCalls: [{ name: "write", arguments: { path: "hello.txt", content: "helo world\n" } }] },
    { toolCalls: [{ name: "read", arguments: { path: "hello.txt" } }] },
    {
      toolCalls: [{
        name: "edit",
        arguments: { path: "hello.txt", oldString: "helo", newString: "hello" },
      }],
    },
    { toolCalls: [{ name: "process_start", arguments: { command: "sleep 0.3; cat hello.txt" } }] },
  ];
  if (tools < steps.length) return steps[tools]!;
  if (tools === steps.length) {
    const started = messageText(request.messages.at(-1)!.content);
    const processId = /process_[0-9a-f]{32}/.exec(started)?.[0] ?? "";
    return { toolCalls: [{ name: "process_wait", arguments: { processId, timeoutMs: 10_000 } }] };
  }
  return { text: ["Fixed: hello world."] };
}

/**
 * Run a command (which asks under the default `ask` preset) and wait for it (it sleeps
 * first, so its start and its exit are recorded on either side of the start's result);
 * then an answer, also when it was denied (the tool result then carries no process id).
 */
function checkBuild(request: ProviderRequest): ScriptedResponse {
  const results = request.messages.filter((m) => m.role === "tool").map((m) =>
    messageText(m.content)
  );
  if (results.length === 0) {
    return {
      toolCalls: [{ name: "process_start", arguments: { command: "sleep 0.3; echo build ok" } }],
    };
  }
  const processId = /process_[0-9a-f]{32}/.exec(results[0]!)?.[0];
  if (processId === undefined) return { text: ["Understood, ", "I will not run it."] };
  if (results.length === 1) {
    return { toolCalls: [{ name: "process_wait", arguments: { processId, timeoutMs: 10_000 } }] };
  }
  return { text: ["The build ", "is fine."] };
}

const initialize = (session: WireSession) =>
  session.request("initialize", {
    protocolVersion: PROTOCOL_VERSION,
    client: { name: "golden", version: "1" },
  });

async function createThread(session: WireSession, title: string, clientRequestId: string) {
  const created = await session.request("thread.create", { title, clientRequestId });
  await session.event("thread.created");
  return (created.result?.thread as { id: string; defaultBranchId: string });
}

/** Starts a turn under the default preset (`ask`) and waits for its approval request. */
async function askingTurn(session: WireSession, threadId: string, content: string) {
  const started = await session.request("turn.start", { threadId, content, ...MODEL });
  const runId = started.result?.runId;
  const asked = await session.event("approval.requested", (e) => e.runId === runId);
  await session.event(
    "run.state_changed",
    (e) => e.runId === runId && (e.payload as { status?: string }).status === "waiting",
  );
  const payload = (asked.params as { payload: { approvalId: string } }).payload;
  return { runId, approvalId: payload.approvalId };
}

/** Every case, in file order. */
export const LIVE_CASES: LiveCase[] = [
  {
    name: "initialize.success",
    description: "initialize names the protocol version and learns the server and latest seq",
    run: async (s) => void await initialize(s),
  },
  {
    name: "initialize.unsupported_version",
    description: "an unsupported protocol version is refused with -32001",
    run: async (s) => void await s.request("initialize", { protocolVersion: 99 }),
  },
  {
    name: "initialize.twice",
    description: "a second initialize on one connection is refused with -32002",
    run: async (s) => {
      await initialize(s);
      await s.request("initialize", { protocolVersion: PROTOCOL_VERSION });
    },
  },
  {
    name: "request.before_initialize",
    description: "any method before initialize is refused with -32000",
    run: async (s) => void await s.request("thread.list", {}),
  },
  {
    name: "params.unknown_field",
    description: "params are strict: an unknown field is -32602 unknown_field naming it",
    run: async (s) => {
      await initialize(s);
      await s.request("thread.list", { limit: 5, verbose: true }, { invalid: true });
    },
  },
  {
    name: "thread.create",
    description: "creates a thread with a managed workspace; the result carries thread.created",
    run: async (s) => {
      await initialize(s);
      await createThread(s, "Weekly report", "golden-thread-create");
    },
  },
  {
    name: "thread.lifecycle",
    description: "rename, archive (refusing new turns), unarchive, get and list",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Draft", "golden-lifecycle");
      await s.request("thread.rename", { threadId: thread.id, title: "Final" });
      await s.event("thread.renamed");
      await s.request("thread.archive", { threadId: thread.id });
      await s.event("thread.archived");
      await s.request("turn.start", { threadId: thread.id, content: "hello", ...MODEL });
      await s.request("thread.unarchive", { threadId: thread.id });
      await s.event("thread.unarchived");
      await s.request("thread.get", { threadId: thread.id });
      await s.request("thread.list", { limit: 1, archived: false });
    },
  },
  {
    name: "turn.start.completed_run",
    description: "a turn whose run answers, calls one tool, answers again and completes",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Notes", "golden-completed-thread");
      const started = await s.request("turn.start", {
        threadId: thread.id,
        branchId: thread.defaultBranchId,
        content: "Summarize notes.md",
        ...FULL_ACCESS,
        clientRequestId: "golden-completed-turn",
        ...MODEL,
      });
      const runId = started.result?.runId;
      await s.event("run.settled", (e) => e.runId === runId);
      await s.request("turn.list", { threadId: thread.id });
    },
  },
  {
    name: "turn.start.reasoning_tools_compaction",
    description: "a run with reasoning and two tool calls per step on a small window: it " +
      "compacts (compression call, context.compacted) and completes",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Logs", "golden-compaction-thread");
      const started = await s.request("turn.start", {
        threadId: thread.id,
        content: "Investigate the six logs",
        ...FULL_ACCESS,
        ...SMALL_MODEL,
      });
      const runId = started.result?.runId;
      await s.event("run.settled", (e) => e.runId === runId);
    },
  },
  {
    name: "turn.start.files_and_command",
    description: "a run that writes, reads and edits a file (file.change_recorded), then runs " +
      "a command and waits for it (process.recorded)",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Greeting", "golden-files-thread");
      const started = await s.request("turn.start", {
        threadId: thread.id,
        content: "Fix the greeting in hello.txt",
        ...FULL_ACCESS,
        ...MODEL,
      });
      const runId = started.result?.runId;
      await s.event("run.settled", (e) => e.runId === runId);
    },
  },
  {
    name: "memory.rpc",
    description: "create, list, get, correct and forget a memory; a stale revision is refused",
    run: async (s) => {
      await initialize(s);
      const scope = { type: "global", key: null };
      const created = await s.request("memory.create", {
        kind: "preference",
        scope,
        content: "Reply concisely",
        clientRequestId: "golden-memory-1",
      });
      const memoryId = created.result?.memoryId;
      await s.request("memory.list", { limit: 10, state: "active" });
      await s.request("memory.get", { memoryId });
      await s.request("memory.correct", {
        memoryId,
        expectedRevision: 1,
        content: "Reply concisely, in English",
        clientRequestId: "golden-memory-2",
      });
      await s.request("memory.forget", {
        memoryId,
        expectedRevision: 1,
        clientRequestId: "golden-memory-3",
      });
      await s.request("memory.forget", {
        memoryId,
        expectedRevision: 2,
        clientRequestId: "golden-memory-4",
      });
      await s.request("memory.get", { memoryId });
    },
  },
  {
    name: "turn.start.memory_tool",
    description: "a run whose model saves a memory with the memory tool",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Prefs", "golden-memory-thread");
      const started = await s.request("turn.start", {
        threadId: thread.id,
        content: "Remember that I prefer short answers",
        ...MODEL,
      });
      const runId = started.result?.runId;
      await s.event("run.settled", (e) => e.runId === runId);
      await s.request("memory.list", { limit: 10 });
    },
  },
  {
    name: "run.cancel",
    description: "cancelling a streaming run keeps the partial text as cancelled and settles once",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Story", "golden-cancel-thread");
      const started = await s.request("turn.start", {
        threadId: thread.id,
        content: "Write a long story",
        ...MODEL,
      });
      const runId = started.result?.runId;
      await s.event("item.delta", (e) => e.runId === runId);
      await s.request("run.cancel", { runId });
      await s.event("run.settled", (e) => e.runId === runId);
    },
  },
  {
    name: "approval.allow_once",
    description: "under the default preset (ask) a command asks: approval.requested and the " +
      "Run waiting; approval.list shows the approval, approval.respond allow_once resolves " +
      "it (approval.resolved), the command runs and the Run completes",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Build", "golden-approval-thread");
      const { runId, approvalId } = await askingTurn(s, thread.id, "Check the build");
      await s.request("approval.list", { threadId: thread.id, status: "pending" });
      await s.request("approval.respond", {
        approvalId,
        decision: "allow_once",
        clientRequestId: "golden-approval-allow",
      });
      await s.event("approval.resolved", (e) => e.runId === runId);
      await s.event("run.settled", (e) => e.runId === runId);
    },
  },
  {
    name: "approval.deny",
    description: "a denial with a message reaches the model as the tool's error and the Run " +
      "goes on; answering again is approval_already_resolved, an unknown id " +
      "approval_not_found",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Build again", "golden-deny-thread");
      const { runId, approvalId } = await askingTurn(s, thread.id, "Check the build again");
      await s.request("approval.respond", {
        approvalId,
        decision: "deny",
        message: "Not on this machine",
        clientRequestId: "golden-approval-deny",
      });
      await s.event("approval.resolved", (e) => e.runId === runId);
      await s.event("run.settled", (e) => e.runId === runId);
      await s.request("approval.respond", { approvalId, decision: "allow_once" });
      await s.request("approval.respond", {
        approvalId: `approval_${"0".repeat(32)}`,
        decision: "allow_once",
      });
    },
  },
  {
    name: "approval.budget",
    description: "a Run that reaches its budget (one model call) waits with a budget_reached " +
      "approval scoped to the Run; denying it settles the Run failed budget_exceeded",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Budget", "golden-budget-thread");
      const started = await s.request("turn.start", {
        threadId: thread.id,
        content: "Keep going",
        ...MODEL,
        ...FULL_ACCESS,
        budget: { modelCalls: 1 },
        clientRequestId: "golden-budget-turn",
      });
      const runId = started.result?.runId;
      const asked = await s.event("approval.requested", (e) => e.runId === runId);
      const { approvalId } = (asked.params as { payload: { approvalId: string } }).payload;
      await s.request("approval.respond", {
        approvalId,
        decision: "deny",
        clientRequestId: "golden-budget-deny",
      });
      await s.event("run.settled", (e) => e.runId === runId);
    },
  },
  {
    name: "run.resume",
    description: "a Run that failed is resumed: a new Run in the same Turn, config frozen " +
      "again, names resumedFromRunId and completes; resuming it again is run_not_resumable",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Resume", "golden-resume-thread");
      const started = await s.request("turn.start", {
        threadId: thread.id,
        content: "Resume me",
        ...MODEL,
        ...FULL_ACCESS,
        clientRequestId: "golden-resume-turn",
      });
      const runId = started.result?.runId;
      await s.event("run.settled", (e) => e.runId === runId);
      const resumed = await s.request("run.resume", {
        runId,
        clientRequestId: "golden-resume",
      });
      const newRunId = (resumed.result as { runId: string }).runId;
      await s.event("run.settled", (e) => e.runId === newRunId);
      await s.request("run.resume", { runId });
    },
  },
  {
    name: "branch.fork",
    description: "branch.create forks after a turn and makes the fork active; a turn.start " +
      "there continues after the fork turn; turn.list shows the lineage with siblings; " +
      "thread.set_active_branch switches back; branch.list; an unknown turn is refused",
    run: async (s) => {
      await initialize(s);
      const thread = await createThread(s, "Fork", "golden-branch-thread");
      const turn = async (clientRequestId: string, branchId?: string) => {
        const started = await s.request("turn.start", {
          threadId: thread.id,
          ...(branchId ? { branchId } : {}),
          content: "Summarize notes.md",
          ...FULL_ACCESS,
          clientRequestId,
          ...MODEL,
        });
        const runId = started.result?.runId;
        await s.event("run.settled", (e) => e.runId === runId);
        return started.result as { turnId: string };
      };
      const first = await turn("golden-branch-turn-1");
      await turn("golden-branch-turn-2");
      const created = await s.request("branch.create", {
        threadId: thread.id,
        fromTurnId: first.turnId,
        clientRequestId: "golden-branch-create",
      });
      await s.event("branch.created");
      const branch = (created.result as { branch: { id: string } }).branch;
      await turn("golden-branch-turn-2b", branch.id);
      await s.request("turn.list", { threadId: thread.id, branchId: branch.id });
      await s.request("thread.set_active_branch", {
        threadId: thread.id,
        branchId: thread.defaultBranchId,
      });
      await s.event("thread.branch_switched");
      await s.request("branch.list", { threadId: thread.id });
      await s.request("thread.get", { threadId: thread.id, branchId: branch.id });
      await s.request("branch.create", {
        threadId: thread.id,
        fromTurnId: "turn_0123456789abcdef0123456789abcdef",
        clientRequestId: "golden-branch-unknown-turn",
      });
    },
  },
  {
    name: "permission.rules",
    description: "permission.read shows the default preset and rules; permission.addRule " +
      "appends a rule (an unknown tool is refused naming it) and permission.removeRule " +
      "removes it by index and content",
    run: async (s) => {
      await initialize(s);
      await s.request("permission.read", {});
      const rule = { tool: "process_start", pattern: "npm test", decision: "allow" };
      const added = await s.request("permission.addRule", {
        rule,
        clientRequestId: "golden-permission-add",
      });
      await s.request("permission.addRule", {
        rule: { tool: "no_such_tool", decision: "allow" },
      }, { invalid: true });
      const rules = (added.result as { rules: { index: number }[] }).rules;
      await s.request("permission.removeRule", { index: rules.at(-1)!.index, rule });
    },
  },
  {
    name: "run.model_fallback",
    description: "model.set_fallback names a fallback; a primary that fails with a retryable " +
      "error before streaming moves the Run to it (run.model_fallback), which completes",
    run: async (s) => {
      await initialize(s);
      await s.request("model.set_fallback", { ...MODEL, fallback: SMALL_MODEL });
      const thread = await createThread(s, "Fallback", "golden-fallback-thread");
      const started = await s.request("turn.start", {
        threadId: thread.id,
        content: "Fail over",
        ...MODEL,
      });
      const runId = started.result?.runId;
      await s.event("run.settled", (e) => e.runId === runId);
      await s.request("model.set_fallback", { ...MODEL, fallback: null });
    },
  },
  {
    name: "breaker.list",
    description: "breaker.list shows the circuit breakers that saw calls (tools by id, " +
      "providers as provider:<id>): closed, with their recent failures",
    run: async (s) => {
      await initialize(s);
      await s.request("breaker.list", {});
    },
  },
  {
    name: "event.replay",
    description: "replaying from seq 0 returns committed events in order",
    run: async (s) => {
      await initialize(s);
      await createThread(s, "Replay", "golden-replay");
      await s.request("event.replay", { afterSeq: 0, limit: 2 });
    },
  },
];

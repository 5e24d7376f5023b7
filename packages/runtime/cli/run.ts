/**
 * `daedalus run`: one Turn from a shell. It picks the thread (new, `--thread`,
 * `--continue`), its agent profile (`--agent`: a new thread is bound to it, an existing one
 * switched to it) and the model, starts the Turn through a {@linkcode HomeSession} (the
 * running runtime's, or the home opened in this process), prints the Run's events as they
 * come (run_output.ts) and exits with the Run's outcome: 0 completed, 1 failed or
 * cancelled, 130 when interrupted (SIGINT cancels the Run and waits for it to settle).
 *
 * A Run that stops for an approval cannot be answered from here: it is cancelled at once,
 * and the notice names the tool, what it would act on, and the preset that allows it.
 *
 * @module
 */
import {
  type AttachmentInput,
  type JournalEvent,
  type ResultOf,
  RpcError,
  type TokenUsage,
} from "@daedalus/protocol";
import { UsageError } from "./args.ts";
import type { HomeSession } from "./home_session.ts";
import type { RunRequest } from "./run_options.ts";
import { addUsage, createRunPrinter, type RunPrinter, type RunStreams } from "./run_output.ts";
import { RUN_CANCEL_SETTLE_WAIT_MS, RUN_THREAD_TITLE_MAX_CHARS } from "./limits.ts";

/** Exit code of a Run interrupted by SIGINT (128 + 2, as shells report it). */
export const EXIT_INTERRUPTED = 130;

/** What `run` needs from its process. */
export interface RunIo {
  /** Output streams. */
  streams: RunStreams;
  /** The prompt and the attachments, already read. */
  content: { prompt: string; attachments: AttachmentInput[] };
  /**
   * Calls `listener` on each SIGINT.
   *
   * @returns a function that stops listening
   */
  onInterrupt(listener: () => void): () => void;
}

/** Why a Run was stopped by the command rather than settling by itself. */
type StopReason = "interrupted" | "approval_required" | "timed_out" | "session_lost";

/**
 * Runs one Turn and prints it.
 *
 * @param session the home
 * @param request the validated flags
 * @param io streams, content and SIGINT
 * @returns the exit code
 * @throws {UsageError} when the thread, the agent profile or the model named does not exist,
 *   or no model can be chosen
 */
export async function runTurn(
  session: HomeSession,
  request: RunRequest,
  io: RunIo,
): Promise<number> {
  const printer = createRunPrinter(request.json, io.streams);
  // Subscribed first: the thread's events from its creation on, none missed.
  const seen: JournalEvent[] = [];
  let deliver: ((event: JournalEvent) => void) | null = null;
  const unsubscribe = session.onEvent((event) => deliver ? deliver(event) : seen.push(event));
  try {
    // Reads first: a bad --model or --agent leaves no empty thread behind.
    const existing = await existingThread(session, request);
    const profiles = await session.call("agent.list", {});
    const agent = chosenAgent(request, profiles);
    const model = await chooseModel(session, request, existing, {
      asked: agent,
      bound: boundProfile(profiles, existing === null ? null : existing.agentId),
    });
    const threadId = existing === null
      ? await createThread(session, request, io.content.prompt)
      : existing.id;
    if (existing !== null && agent !== null && existing.agentId !== agent.id) {
      // Switched between turns, as the app does: the Run below is frozen with it.
      await session.call("thread.set_agent", { threadId, agentId: agent.id });
    }
    const started = await session.call("turn.start", {
      threadId,
      content: io.content.prompt,
      ...(model === null ? {} : { providerId: model.providerId, modelId: model.modelId }),
      ...(io.content.attachments.length > 0 ? { attachments: io.content.attachments } : {}),
      ...(request.permission ? { executionPolicy: request.permission } : {}),
    });
    return await followRun(session, request, io, printer, {
      threadId,
      runId: started.runId,
      seen,
      setDeliver: (fn) => deliver = fn,
    });
  } finally {
    unsubscribe();
  }
}

async function followRun(
  session: HomeSession,
  request: RunRequest,
  io: RunIo,
  printer: RunPrinter,
  run: {
    threadId: string;
    runId: string;
    seen: JournalEvent[];
    setDeliver(fn: (event: JournalEvent) => void): void;
  },
): Promise<number> {
  let usage: TokenUsage | null = null;
  let stopped: StopReason | null = null;
  let forced = false;
  let settle!: (event: JournalEvent | null) => void;
  const settled = new Promise<JournalEvent | null>((resolve) => settle = resolve);
  let stopRequested!: () => void;
  // Once the command asked for a stop, the Run has a bounded time to settle.
  const cancelling = new Promise<void>((resolve) => stopRequested = resolve);
  const stop = (reason: StopReason) => {
    if (stopped !== null) return;
    stopped = reason;
    stopRequested();
    session.call("run.cancel", { runId: run.runId }).catch((error) =>
      printer.notice(`daedalus run: cannot cancel ${run.runId}: ${(error as Error).message}`)
    );
  };
  const onEvent = (event: JournalEvent) => {
    if (event.threadId !== run.threadId) return;
    printer.event(event);
    if (event.runId !== run.runId) return;
    if (event.type === "model.response_finished") usage = addUsage(usage, event.payload.usage);
    if (event.type === "approval.requested" && event.payload.status === "pending") {
      printer.notice(approvalNotice(event.payload, session.mode));
      stop("approval_required");
    }
    if (event.type === "run.settled") settle(event);
  };
  for (const event of run.seen.splice(0)) onEvent(event);
  run.setDeliver(onEvent);

  const stopListening = io.onInterrupt(() => {
    if (stopped === "interrupted") {
      // A second Ctrl-C: stop waiting for the Run (the runtime settles it on its own).
      forced = true;
      settle(null);
      return;
    }
    printer.notice("daedalus run: interrupted; cancelling the Run (Ctrl-C again to quit now)");
    stop("interrupted");
  });
  const timer = request.timeoutMs === null ? undefined : setTimeout(() => {
    printer.notice(`daedalus run: --timeout ${request.timeoutMs! / 1000} s reached; cancelling`);
    stop("timed_out");
  }, request.timeoutMs);
  void session.lost.then((why) => {
    printer.notice(`daedalus run: ${why}`);
    stopped ??= "session_lost";
    settle(null);
  });
  let outcome: JournalEvent | null;
  try {
    outcome = await Promise.race([settled, cancelling.then(() => withinWait(settled))]);
  } finally {
    clearTimeout(timer);
    stopListening();
  }
  const payload = outcome?.type === "run.settled" ? outcome.payload : null;
  if (payload?.status === "failed" && payload.errorMessage) {
    printer.notice(`daedalus run: ${payload.errorMessage}`);
  }
  if (outcome === null && !forced && stopped !== "session_lost") {
    printer.notice(`daedalus run: the Run did not settle within ${RUN_CANCEL_SETTLE_WAIT_MS} ms`);
  }
  const status = payload?.status ?? "failed";
  const ownReason = stopped === "approval_required" || stopped === "timed_out" ? stopped : null;
  printer.finish({
    type: "summary",
    status,
    reasonCode: ownReason ?? payload?.reasonCode ?? (stopped === "session_lost" ? stopped : null),
    usage,
    threadId: run.threadId,
    runId: run.runId,
  });
  if (stopped === "interrupted") return EXIT_INTERRUPTED;
  return status === "completed" ? 0 : 1;
}

/** The settlement, or null when it takes longer than the wait. */
async function withinWait(settled: Promise<JournalEvent | null>): Promise<JournalEvent | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), RUN_CANCEL_SETTLE_WAIT_MS);
  });
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

function approvalNotice(
  approval: { tool: string | null; summary: string; target: string | null; reasonCode: string },
  mode: HomeSession["mode"],
): string {
  const what = [approval.tool, approval.target].filter((part) => part).join(" ");
  const allow = approval.reasonCode === "budget_reached"
    ? "raise the limit in config.yaml's `budgets`"
    : "pass --permission full_access to run it without asking, or allow it with a rule in " +
      "config.yaml's `permissions`";
  const answer = mode === "attached" ? "" : "; or start `daedalus serve` and answer it in the app";
  return `daedalus run: the Run waits for an approval (${approval.reasonCode}): ${
    what || approval.summary
  } — ${approval.summary}. A headless run cannot answer it, so the Run is cancelled. To allow ` +
    `it, ${allow}${answer}`;
}

/** A thread `--thread` or `--continue` names: its id and the profile it is bound to. */
interface ExistingThread {
  id: string;
  agentId: string | null;
}

/** The thread `--thread` or `--continue` names, or null for a new one. */
async function existingThread(
  session: HomeSession,
  request: RunRequest,
): Promise<ExistingThread | null> {
  const choice = request.thread;
  if (choice.kind === "id") {
    try {
      const { thread } = await session.call("thread.get", { threadId: choice.threadId });
      return { id: thread.id, agentId: thread.agentId ?? null };
    } catch (error) {
      if (reasonOf(error) === "thread_not_found") {
        throw new UsageError(`--thread ${choice.threadId}: no such thread`, "run");
      }
      throw error;
    }
  }
  if (choice.kind === "newest") {
    const { threads } = await session.call("thread.list", { limit: 1 });
    const newest = threads[0];
    if (!newest) throw new UsageError("--continue: there is no thread to continue", "run");
    return { id: newest.id, agentId: newest.agentId ?? null };
  }
  return null;
}

type AgentList = ResultOf<"agent.list">;
type Profile = AgentList["agents"][number]["profile"];

/**
 * The profile `--agent` names, checked against `agent.list` (the runtime's, attached or
 * in this process) before anything is created; null without `--agent`.
 *
 * @throws {UsageError} naming the id and the profiles there are
 */
function chosenAgent(request: RunRequest, profiles: AgentList): Profile | null {
  if (request.agent === null) return null;
  const found = profiles.agents.find((info) => info.profile.id === request.agent);
  if (found) return found.profile;
  const ids = profiles.agents.map((info) => info.profile.id).join(", ");
  throw new UsageError(`--agent ${request.agent}: no such agent profile; profiles: ${ids}`, "run");
}

/** The profile a thread's Runs use: its binding while that exists, else the default. */
function boundProfile(profiles: AgentList, agentId: string | null): Profile | null {
  const find = (id: string | null) =>
    profiles.agents.find((info) => info.profile.id === id)?.profile;
  return find(agentId) ?? find(profiles.defaultAgentId) ?? null;
}

async function createThread(
  session: HomeSession,
  request: RunRequest,
  prompt: string,
): Promise<string> {
  const choice = request.thread;
  const { thread } = await session.call("thread.create", {
    ...(request.agent === null ? {} : { agentId: request.agent }),
    // The prompt's first line names the thread provisionally: a one-shot process exits
    // before any automatic title, and a served runtime replaces a provisional title with
    // its own after the first Run — or keeps it when titles are off or the call fails.
    title: titleOf(prompt),
    ...(choice.kind === "new" && choice.workspace !== null
      ? { workspace: { rootUri: choice.workspace } }
      : {}),
  });
  return thread.id;
}

/**
 * The model the turn names, or null to leave it to the thread's agent profile (the
 * runtime then uses the profile's own model). In order: `--model`; the `--agent`
 * profile's model; the thread's last model; the bound profile's model; the default model
 * of Settings; the only enabled model.
 */
async function chooseModel(
  session: HomeSession,
  request: RunRequest,
  existing: ExistingThread | null,
  agents: { asked: Profile | null; bound: Profile | null },
): Promise<{ providerId: string; modelId: string } | null> {
  const { models } = await session.call("model.list", {});
  const enabled = models.filter((model) => model.enabled);
  const names = enabled.map((model) => `${model.providerId}/${model.id}`);
  const configured = names.length > 0 ? `: ${names.join(", ")}` : " (none is configured)";
  if (request.model) {
    const { providerId, modelId } = request.model;
    if (!enabled.some((model) => model.providerId === providerId && model.id === modelId)) {
      throw new UsageError(
        `--model ${providerId}/${modelId} is not an enabled model; enabled${configured}`,
        "run",
      );
    }
    return request.model;
  }
  if (agents.asked?.model) return null;
  if (existing !== null) {
    const { turns } = await session.call("turn.list", {
      threadId: existing.id,
      limit: 1,
      direction: "backward",
    });
    const last = turns.at(-1)?.runs.at(-1);
    if (last && enabled.some((m) => m.providerId === last.providerId && m.id === last.modelId)) {
      return { providerId: last.providerId, modelId: last.modelId };
    }
  }
  if ((agents.asked ?? agents.bound)?.model) return null;
  // The default model of Settings, which the runtime applies to a turn that names none.
  const { settings } = await session.call("settings.read", {});
  if (settings.defaultModel) return null;
  const only = enabled[0];
  if (enabled.length === 1 && only) return { providerId: only.providerId, modelId: only.id };
  throw new UsageError(
    enabled.length === 0
      ? "No model is configured: add a provider in config.yaml or the web app"
      : `Several models are enabled; choose one with --model${configured}`,
    "run",
  );
}

function titleOf(prompt: string): string {
  const line = prompt.trim().split("\n", 1)[0]!.trim();
  return line.length > RUN_THREAD_TITLE_MAX_CHARS
    ? `${line.slice(0, RUN_THREAD_TITLE_MAX_CHARS - 1).trimEnd()}…`
    : line;
}

function reasonOf(error: unknown): string | null {
  return error instanceof RpcError ? error.reasonCode : null;
}

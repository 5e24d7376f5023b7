/**
 * The tool context of one Run, built once when the Run starts: its thread's workspace,
 * its frozen execution policy and policy gate (the preset of that mode plus config.yaml's
 * `permissions` rules as read when the Run starts, its loop detector, the runtime's
 * breakers), the artifacts folder, the protected files and values, and
 * the capabilities (session, process, memory operations, and the places of the user's
 * MEMORY.md when its agent profile enables them) scoped to it. Each tool call
 * adds only its item, signal and fact recorders — no storage read per call.
 *
 * @module
 */
import type { RunConfig } from "@daedalus/protocol";
import {
  ConfigError,
  getThread,
  type MemoryStore,
  type PermissionsConfig,
  readPermissions,
  readRunItems,
  readThreadRules,
  type StateStore,
} from "@daedalus/storage";
import {
  type CircuitBreakers,
  createRunGate,
  createRunMemo,
  type LoopDetector,
  memoryFileAccess,
  type ProcessManager,
  type RunToolContext,
} from "@daedalus/tools";
import type { Scheduler } from "../scheduler/scheduler.ts";
import { workspaceMemoryKey } from "../memory/workspace_key.ts";
import { createSessionOperations, type SessionDeps } from "./capabilities/sessions.ts";
import { createProcessOperations } from "./capabilities/processes.ts";
import { createMemoryOperations } from "./capabilities/memory.ts";

/** What a Run's tool context is built from (the runtime's parts). */
export interface RunToolContextDeps {
  /** The state store. */
  store: StateStore;
  /** The runtime home (its MEMORY.md is the user's notes when the workspace has none). */
  home: string;
  /** `<home>/artifacts`. */
  artifactsRoot: string;
  /** `<home>/config.yaml`, `auth.json`, `sessions.json`: refused to every tool. */
  protectedFiles: readonly string[];
  /** Configured credentials. */
  protectedValues: { find(text: string): boolean; redact(text: string): string };
  /** The scheduler (for session tools). */
  scheduler: Scheduler;
  /** The process manager (for process tools). */
  processes: ProcessManager;
  /** memory.db (for the memory tool). */
  memory: MemoryStore;
  /** Where managed workspaces are made. */
  workspacesRoot: string;
  /** Deepest sub-agent nesting. */
  subagentMaxDepth: number;
  /** Prepares a delegated Run from a profile (absent: the caller's config). */
  prepareDelegated?: SessionDeps["prepareDelegated"];
  /** The runtime's tool breakers, keyed by tool id (shared by every Run). */
  breakers?: CircuitBreakers;
  /**
   * A Run's loop detector, kept while the Run lives in this process (a Run that waited for
   * an approval goes on counting); absent: each context gets a new one.
   */
  loopDetector?: (runId: string) => LoopDetector;
}

/**
 * config.yaml's `permissions` section as a Run starts: the section, or why it could not
 * be read (then every call of the Run is refused, see `@daedalus/tools` `gate.ts`).
 */
export type RunPermissions = { settings: PermissionsConfig } | { problem: string };

/**
 * Reads config.yaml's `permissions` for a Run that starts (through the config cache, so
 * most Runs read no file). A file that cannot be used is a problem, not an exception: when
 * it has a `permissions` section the Run refuses every tool call rather than run without
 * the user's deny rules; without one there are no rules to lose, and the Run goes on with
 * the preset alone (as the runtime goes on without the providers of a broken file).
 *
 * @param configPath `<home>/config.yaml`
 * @returns the section, or the problem
 */
export async function readRunPermissions(configPath: string): Promise<RunPermissions> {
  try {
    return { settings: await readPermissions(configPath) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const text = await Deno.readTextFile(configPath).catch(() => "");
    if (!PERMISSIONS_KEY.test(text)) return { settings: {} };
    return { problem: `config.yaml cannot be used (${error.code}): ${error.message}` };
  }
}

/** A line that starts a top-level `permissions:` key, as a broken file still shows it. */
const PERMISSIONS_KEY = /^["']?permissions["']?\s*:/m;

/** The Run a context is built for. */
export interface ToolRun {
  /** The run. */
  runId: string;
  /** Its thread. */
  threadId: string;
  /** Its frozen config (the execution policy, and what a delegated Run inherits). */
  config: Readonly<RunConfig>;
}

/**
 * Builds a Run's tool context.
 *
 * @param deps the runtime's parts
 * @param run the Run and its frozen config
 * @param permissions config.yaml's permissions, read once for this Run (default: none)
 * @returns the context every call of the Run starts from
 */
export function createRunToolContext(
  deps: RunToolContextDeps,
  run: ToolRun,
  permissions: RunPermissions = { settings: {} },
): RunToolContext {
  const { thread } = deps.store.read((db) => getThread(db, run.threadId));
  const items = deps.store.read((db) => readRunItems(db, run.runId));
  // The Run's first item is the message that started it: a cross-thread one counts hops.
  const send = items[0]?.data.threadSend as { hops?: unknown } | undefined;
  const root = thread.workspace?.rootUri;
  return {
    threadId: run.threadId,
    runId: run.runId,
    workspaceRoot: root ?? Deno.cwd(),
    artifactsRoot: deps.artifactsRoot,
    executionPolicy: run.config.executionPolicy,
    protectedFiles: deps.protectedFiles,
    protectedValues: deps.protectedValues,
    runMemo: createRunMemo(),
    // The Run's preset is its frozen mode; config.yaml's rules are checked after it, then
    // the thread's (allow_thread answers). A verdict that asks becomes an approval: the
    // runtime can ask the user.
    gate: createRunGate({
      executionPolicy: run.config.executionPolicy,
      askUser: true,
      ...(deps.loopDetector ? { loops: deps.loopDetector(run.runId) } : {}),
      threadRules: deps.store.read((db) => readThreadRules(db, run.threadId)),
      ...("problem" in permissions ? { configProblem: permissions.problem } : {
        configRules: permissions.settings.rules ?? [],
        highRiskCommands: permissions.settings.highRiskCommands ?? "ask",
      }),
      ...(deps.breakers ? { breakers: deps.breakers } : {}),
    }),
    sessions: createSessionOperations(deps, {
      runId: run.runId,
      thread,
      config: run.config,
      callerHops: typeof send?.hops === "number" ? send.hops : 0,
    }),
    processes: createProcessOperations(deps.processes, run),
    memory: createMemoryOperations(deps.store, deps.memory, {
      triggeringItemId: items.find((item) => item.role === "user")?.id ?? null,
      workspaceKey: workspaceMemoryKey(root),
    }),
    // Only a profile that says so uses MEMORY.md; a Run frozen before profiles does not.
    ...(run.config.agent?.profile.memory.memoryFile === true
      ? { memoryFile: memoryFileAccess({ home: deps.home, workspace: root ?? null }) }
      : {}),
  };
}

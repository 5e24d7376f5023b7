/**
 * The RPC methods of this runtime, one handler per method, over the store, the
 * scheduler and the event hub. Command methods commit, then return the result and
 * an `afterResponse` for work that must wait for the response (a Run is queued once
 * `turn.start` has answered). Their commits reach clients by construction, after the
 * response (hub/commit_holds.ts).
 *
 * @module
 */
import type { JournalEvent, ResultOf, ValidParamsOf } from "@daedalus/protocol";
import {
  createThread,
  getThread,
  getThreadWithBranch,
  listThreads,
  listTurns,
  readEventsForThread,
  readItemSource,
  readRunConfig,
  readRunScope,
  readUsage,
  renameThread,
  replayEvents,
  resumeRun,
  setThreadArchived,
  startTurn,
  type StateStore,
  steerRun,
} from "@daedalus/storage";
import { RPC_ERROR_CODES, RpcError } from "@daedalus/protocol";
import type { Scheduler } from "../scheduler/scheduler.ts";
import type { RpcSession } from "../server/dispatcher.ts";
import { assertSourceAllowed } from "./thread_source_guard.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import type { ProtectedValues } from "../security/protected_values.ts";
import type { ProviderHandlers } from "./provider_handlers.ts";
import { createFileHandlers, type FileHandlers } from "./file_handlers.ts";
import { createRevertHandlers } from "./revert_handlers.ts";
import { type CompactionHandlers, createCompactionHandlers } from "./compaction_handlers.ts";
import { type BranchHandlers, createBranchHandlers } from "./branch_handlers.ts";
import { createDeleteHandlers, type DeleteHandlers } from "./delete_handlers.ts";
import type { ThreadFileDirs } from "../threads/deleted_files.ts";
import { createSearchHandlers, type SearchHandlers } from "./search_handlers.ts";
import { createSkillHandlers, type SkillHandlers } from "./skill_handlers.ts";
import {
  type AuxiliaryForcedOff,
  createSettingsHandlers,
  type SettingsHandlers,
} from "./settings_handlers.ts";
import { createProcessHandlers, type ProcessHandlers } from "./process_handlers.ts";
import { createPermissionHandlers, type PermissionHandlers } from "./permission_handlers.ts";
import { type ApprovalHandlers, createApprovalHandlers } from "./approval_handlers.ts";
import { type ClientToolHandlers, createClientToolHandlers } from "./client_tool_handlers.ts";
import { createToolHandlers, type ToolHandlers } from "./tool_handlers.ts";
import {
  createMemoryHandlers,
  type MemoryHandlers,
  type MemoryHandlerStore,
} from "./memory_handlers.ts";
import type { ProcessManager } from "@daedalus/tools";
import type { ToolDefinition } from "@daedalus/tools";
import { RunConfigFreezer } from "./run_config_freezer.ts";
import { prepareRun } from "./run_preparation.ts";
import { agentForNewThread, type AgentHandlers, createAgentHandlers } from "./agent_handlers.ts";
import { type BreakerHandlers, createBreakerHandlers } from "./breaker_handlers.ts";
import { createMcpHandlers, type McpHandlers } from "./mcp_handlers.ts";
import { createGatewayKeyHandlers, type GatewayKeyHandlers } from "../gateway/key_handlers.ts";
import type { GatewayKeyStore } from "../gateway/key_store.ts";
import type { KeyRateLimiter } from "../gateway/rate_limiter.ts";
import type { McpServers } from "../mcp/mcp_servers.ts";
import type { CircuitBreakers } from "@daedalus/tools";
import { inspectAttachments } from "../attachments/inspect.ts";

/** What the services need. */
export interface ServiceDeps {
  /** The state store. */
  store: StateStore;
  /** The scheduler. */
  scheduler: Scheduler;
  /** Providers and models of the config (and any providers given in code). */
  registry: ProviderRegistry;
  /** Configured credentials, refused in any request content. */
  protectedValues: ProtectedValues;
  /** The `provider.*` and `model.*` handlers. */
  providerHandlers: ProviderHandlers;
  /** `<home>/skills`, checked at each turn.start (rescanned on change) to freeze the enabled skills. */
  skillsRoot: string;
  /** `<home>/config.yaml` (its `skills.disabled`). */
  configPath: string;
  /** `<home>/config.yaml`, `auth.json`, `sessions.json`: no file view shows them. */
  protectedFiles?: readonly string[];
  /** The runtime's managed processes. */
  processManager: ProcessManager;
  /** Long-term memory (memory.db). */
  memoryStore: MemoryHandlerStore;
  /** The tools Runs may call (frozen into each RunConfig by name). */
  tools: ReadonlyMap<string, ToolDefinition<unknown>>;
  /** Where managed thread workspaces are made. */
  workspacesRoot: string;
  /** The home folders a deleted thread's own files are removed from (`thread.delete`). */
  threadFiles: ThreadFileDirs;
  /** The context window of a model, when the provider registry knows it. */
  contextWindow?: (providerId: string, modelId: string) => number | undefined;
  /** Starts a clean shutdown (after the response is sent). */
  requestShutdown: () => void;
  /** Which auxiliary calls the environment forces off (`settings.read` reports it). */
  auxiliaryForcedOff?: AuxiliaryForcedOff;
  /** The circuit breakers `breaker.list` shows: the tools' and the providers'. */
  breakers: { toolBreakers: CircuitBreakers; providerBreakers: CircuitBreakers };
  /** The MCP servers `mcp.*` manages. */
  mcpServers: McpServers;
  /** The gateway's app keys (`gateway.key.*`) and their rate limiter; no such methods without. */
  gateway?: { keys: GatewayKeyStore; limiter: KeyRateLimiter };
}

/** A handler's outcome: the result, and what to do once it has been sent. */
export interface Handled<R> {
  /** The result. */
  result: R;
  /** Publishes the call's events after the response. */
  afterResponse?: () => void;
}

/** One handler per method this runtime serves. */
export type Handlers =
  & {
    [M in keyof HandledMethods]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
  }
  & ProviderHandlers
  & FileHandlers
  & SkillHandlers
  & SettingsHandlers
  & PermissionHandlers
  & ProcessHandlers
  & ApprovalHandlers
  & ClientToolHandlers
  & ToolHandlers
  & MemoryHandlers
  & BreakerHandlers
  & McpHandlers
  & Partial<GatewayKeyHandlers>
  & CompactionHandlers
  & BranchHandlers
  & DeleteHandlers
  & SearchHandlers
  & AgentHandlers;

type HandledMethods = Pick<
  Record<import("@daedalus/protocol").MethodName, unknown>,
  | "thread.create"
  | "thread.rename"
  | "thread.archive"
  | "thread.unarchive"
  | "thread.get"
  | "thread.list"
  | "turn.start"
  | "turn.list"
  | "run.cancel"
  | "run.resume"
  | "run.steer"
  | "event.replay"
  | "usage.read"
  | "runtime.shutdown"
>;

/**
 * Builds the handlers.
 *
 * @param deps store, scheduler, providers, tools
 * @returns a handler for each served method
 */
export function createHandlers(deps: ServiceDeps): Handlers {
  const { store } = deps;
  // Keeps the tool schemas, identity and skills with their hashes between turns.
  const freezer = new RunConfigFreezer(deps.skillsRoot, deps.configPath);
  const preparation = {
    store,
    configPath: deps.configPath,
    registry: deps.registry,
    tools: deps.tools,
    freezer,
    contextWindow: deps.contextWindow,
  };
  const answered = <R>(result: R): Handled<R> => ({ result });
  const threadChange = (
    committed: { result: { thread: unknown; changed: boolean }; events: JournalEvent[] },
  ) =>
    answered(
      { ...committed.result, event: committed.events[0] ?? null } as ResultOf<"thread.rename">,
    );

  return {
    "thread.create": async (params, session?: RpcSession) => {
      deps.protectedValues.assertSafe(params, "params");
      assertSourceAllowed(params.source, session);
      const agentId = await agentForNewThread(deps.configPath, params.agentId);
      const committed = await createThread(store, {
        title: params.title ?? null,
        clientRequestId: params.clientRequestId,
        workspace: params.workspace,
        workspacesRoot: deps.workspacesRoot,
        source: params.source ?? null,
        agentId,
      });
      const threadId = committed.result.thread.id;
      const event = committed.events[0] ?? originalCreatedEvent(store, threadId);
      const thread = store.read((db) => getThread(db, threadId)).thread;
      return answered({ thread, event });
    },
    "thread.rename": (params) => {
      deps.protectedValues.assertSafe(params.title, "title");
      return Promise.resolve(
        threadChange(renameThread(store, params.threadId, params.title, "user")),
      );
    },
    "thread.archive": (params) =>
      Promise.resolve(threadChange(setThreadArchived(store, params.threadId, true))),
    "thread.unarchive": (params) =>
      Promise.resolve(threadChange(setThreadArchived(store, params.threadId, false))),
    "thread.get": (params) =>
      Promise.resolve({
        result: store.read((db) => getThreadWithBranch(db, params.threadId, params.branchId)),
      }),
    "thread.list": (params) =>
      Promise.resolve({ result: store.read((db) => listThreads(db, params)) }),
    "turn.start": async (params) => {
      if (!deps.scheduler.accepting) {
        throw new RpcError(
          RPC_ERROR_CODES.internalError,
          "shutting_down",
          "The runtime is shutting down; start the turn again once it is back",
        );
      }
      // Every field, not only the text: a clientRequestId is stored too.
      deps.protectedValues.assertSafe(params, "");
      assertClientTools(params.clientTools ?? [], deps.tools);
      const unknownTool = params.tools?.find((name) => !deps.tools.has(name));
      if (unknownTool !== undefined) {
        throw new RpcError(
          RPC_ERROR_CODES.invalidParams,
          "tool_not_found",
          `There is no tool "${unknownTool}" to allow (tool.list names them)`,
          { field: "tools" },
        );
      }
      // Frozen: a later config or profile change cannot alter a Run already submitted.
      const runConfig = await prepareRun(preparation, {
        threadId: params.threadId,
        ...(params.providerId !== undefined ? { providerId: params.providerId } : {}),
        ...(params.modelId !== undefined ? { modelId: params.modelId } : {}),
        ...(params.reasoningEffort !== undefined
          ? { reasoningEffort: params.reasoningEffort }
          : {}),
        ...(params.executionPolicy ? { executionPolicy: params.executionPolicy } : {}),
        ...(params.budget ? { budget: params.budget } : {}),
        ...(params.tools ? { tools: params.tools } : {}),
        ...(params.clientTools?.length ? { clientTools: params.clientTools } : {}),
      });
      const executionPolicy = runConfig.executionPolicy;
      const attachments = await inspectAttachments(params.attachments ?? []);
      const committed = startTurn(store, {
        attachments,
        threadId: params.threadId,
        branchId: params.branchId,
        content: params.content,
        providerId: runConfig.providerId,
        modelId: runConfig.modelId,
        clientRequestId: params.clientRequestId,
        executionPolicy,
        runConfig,
      });
      const { created: _created, ...ids } = committed.result;
      return {
        result: ids,
        afterResponse: () => {
          if (committed.result.created) deps.scheduler.enqueue(ids.runId, ids.threadId);
        },
      };
    },
    "turn.list": (params) => Promise.resolve({ result: store.read((db) => listTurns(db, params)) }),
    "run.cancel": (params) => {
      const scope = store.read((db) => readRunScope(db, params.runId));
      const status = scope.status;
      // A waiting Run is cancelled too: its approval is cancelled with it.
      if (status === "queued" || status === "running" || status === "waiting") {
        deps.scheduler.cancel(params.runId);
      }
      return Promise.resolve({ result: { accepted: true, runId: params.runId, status } });
    },
    "run.resume": async (params) => {
      if (!deps.scheduler.accepting) {
        throw new RpcError(
          RPC_ERROR_CODES.internalError,
          "shutting_down",
          "The runtime is shutting down; resume the run once it is back",
        );
      }
      deps.protectedValues.assertSafe(params, "");
      const earlier = store.read((db) => readRunConfig(db, params.runId));
      // The same model, mode and limits; the rest prepared again from the thread's binding
      // and the configuration as they are now (seed 003: resume rebuilds from stored facts).
      const runConfig = await prepareRun(preparation, {
        threadId: store.read((db) => readRunScope(db, params.runId)).threadId,
        providerId: earlier.providerId,
        modelId: earlier.modelId,
        reasoningEffort: earlier.reasoningEffort,
        executionPolicy: earlier.executionPolicy,
        // No budget in the earlier Run: none now either (not config.yaml's since).
        budget: earlier.budget ?? {},
        // A resumed Run may do no more than the one it continues (tools gone since: left out).
        ...(earlier.allowedTools ? { tools: earlier.allowedTools } : {}),
        ...(earlier.clientTools ? { clientTools: earlier.clientTools } : {}),
      });
      const committed = resumeRun(store, {
        fromRunId: params.runId,
        runConfig,
        ...(params.clientRequestId !== undefined
          ? { clientRequestId: params.clientRequestId }
          : {}),
      });
      const { created: _created, ...ids } = committed.result;
      return {
        result: ids,
        afterResponse: () => {
          if (committed.result.created) deps.scheduler.enqueue(ids.runId, ids.threadId);
        },
      };
    },
    "run.steer": async (params) => {
      if (params.expectedRunId && params.expectedRunId !== params.runId) {
        throw new RpcError(
          RPC_ERROR_CODES.invalidParams,
          "run_mismatch",
          "expectedRunId does not name the run being steered",
          { field: "expectedRunId" },
        );
      }
      // Every field, not only the text: a clientRequestId is stored too.
      deps.protectedValues.assertSafe(params, "");
      const attachments = await inspectAttachments(params.attachments ?? []);
      steerRun(store, params.runId, params.content, {
        clientRequestId: params.clientRequestId,
        attachments,
      });
      return answered({
        accepted: true,
        runId: params.runId,
        clientRequestId: params.clientRequestId ?? null,
        status: "received" as const,
      });
    },
    "event.replay": (params) =>
      Promise.resolve({ result: store.read((db) => replayEvents(db, params)) }),
    "usage.read": () =>
      Promise.resolve({
        result: store.read((db) => readUsage(db, { today: localDate(new Date()) })),
      }),
    ...deps.providerHandlers,
    ...createBreakerHandlers(deps.breakers),
    ...(deps.gateway
      ? createGatewayKeyHandlers({
        keys: deps.gateway.keys,
        limiter: deps.gateway.limiter,
        resolveModel: (providerId, modelId) => deps.registry.resolveModel(providerId, modelId),
        toolNames: () => deps.tools.keys(),
        checkAgent: (agentId) => agentForNewThread(deps.configPath, agentId),
        assertSafe: (value, field) => deps.protectedValues.assertSafe(value, field),
        protect: (value) => deps.protectedValues.register(value),
      })
      : {}),
    ...createMcpHandlers({
      configPath: deps.configPath,
      servers: deps.mcpServers,
      protectedValues: deps.protectedValues,
    }),
    ...createFileHandlers({
      store,
      protectedValues: deps.protectedValues,
      protectedFiles: deps.protectedFiles ?? [],
    }),
    ...createCompactionHandlers({
      store,
      scheduler: deps.scheduler,
      registry: deps.registry,
      contextWindow: deps.contextWindow,
      protectedValues: deps.protectedValues,
      today: () => localDate(new Date()),
    }),
    ...createBranchHandlers({ store, protectedValues: deps.protectedValues }),
    ...createDeleteHandlers({
      store,
      processManager: deps.processManager,
      protectedValues: deps.protectedValues,
      threadFiles: deps.threadFiles,
    }),
    ...createSearchHandlers(store),
    ...createAgentHandlers({
      store,
      configPath: deps.configPath,
      skillsRoot: deps.skillsRoot,
      tools: deps.tools,
      registry: deps.registry,
      protectedValues: deps.protectedValues,
    }),
    ...createRevertHandlers({
      store,
      protectedValues: deps.protectedValues,
      protectedFiles: deps.protectedFiles ?? [],
    }),
    ...createProcessHandlers({ store, manager: deps.processManager }),
    ...createApprovalHandlers({
      store,
      scheduler: deps.scheduler,
      configPath: deps.configPath,
      protectedValues: deps.protectedValues,
    }),
    ...createToolHandlers(deps.tools),
    ...createClientToolHandlers({
      store,
      scheduler: deps.scheduler,
      protectedValues: deps.protectedValues,
    }),
    ...createMemoryHandlers({
      store: deps.memoryStore,
      resolveItem: (itemId) => store.read((db) => readItemSource(db, itemId)),
      protectedValues: deps.protectedValues,
    }),
    ...createSkillHandlers({
      skillsRoot: deps.skillsRoot,
      configPath: deps.configPath,
      protectedValues: deps.protectedValues,
    }),
    ...createSettingsHandlers({
      configPath: deps.configPath,
      forcedOff: deps.auxiliaryForcedOff,
      protectedValues: deps.protectedValues,
      registry: deps.registry,
    }),
    ...createPermissionHandlers({
      configPath: deps.configPath,
      protectedValues: deps.protectedValues,
    }),
    "runtime.shutdown": () =>
      Promise.resolve({ result: { accepted: true }, afterResponse: deps.requestShutdown }),
  };
}

/** The local calendar date, `YYYY-MM-DD` (usage days are local days). */
export function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** An idempotent create returns the original thread.created event: the thread's first. */
function originalCreatedEvent(store: StateStore, threadId: string) {
  const page = store.read((db) => readEventsForThread(db, threadId, { afterSeq: 0, limit: 1 }));
  const found = page.events[0];
  if (found?.type === "thread.created") return found;
  throw new RpcError(
    RPC_ERROR_CODES.internalError,
    "internal_error",
    "Original thread.created event is missing",
  );
}

/**
 * Refuses client-side tools whose names the model could not tell apart: one of the
 * runtime's tools, or the same name twice.
 */
function assertClientTools(
  clientTools: readonly { name: string }[],
  tools: ReadonlyMap<string, unknown>,
): void {
  const seen = new Set<string>();
  for (const { name } of clientTools) {
    if (tools.has(name) || seen.has(name)) {
      throw new RpcError(
        RPC_ERROR_CODES.invalidParams,
        "client_tool_conflict",
        tools.has(name)
          ? `The client tool "${name}" has the name of one of the runtime's tools; rename it`
          : `The client tool "${name}" is offered twice`,
        { field: "clientTools" },
      );
    }
    seen.add(name);
  }
}

/**
 * The runtime without its HTTP server: the home lock, state.db, the event hub, the
 * scheduler running the agent loop, the RPC services and crash recovery. The
 * server (and tests that drive the dispatcher directly) sit on top of it.
 *
 * @module
 */
import {
  acquireRuntimeLock,
  defaultConfig,
  ensureHome,
  ExtractionCursors,
  getThread,
  type HomePaths,
  homePaths,
  isThreadDeleted,
  listRecoverableRuns,
  MemoryStore,
  readConfig,
  readRunConfig,
  readRunningProcessRecords,
  readRunScope,
  recallMemories,
  recordProcess,
  type RuntimeLock,
  settleRun,
  StateStore,
} from "@daedalus/storage";
import { replayEvents } from "@daedalus/storage";
import { EventHub } from "./hub/event_hub.ts";
import { CommitHolds } from "./hub/commit_holds.ts";
import { Scheduler } from "./scheduler/scheduler.ts";
import { BetweenRuns } from "./scheduler/between_runs.ts";
import { HeapTrimmer } from "./scheduler/heap_trim.ts";
import { IdleCheckpointer } from "./scheduler/idle_checkpoint.ts";
import { runAgentLoop } from "./loop/agent_loop.ts";
import { ThreadTitler } from "./loop/thread_titles.ts";
import { AuxiliaryQueue } from "./providers/auxiliary_queue.ts";
import { readAuxiliarySettings } from "./services/settings_handlers.ts";
import type { Provider } from "./providers/provider.ts";
import { prepareDelegatedRun } from "./services/run_preparation.ts";
import { RunConfigFreezer } from "./services/run_config_freezer.ts";
import { ProviderRegistry } from "./providers/registry.ts";
import { guardProvider } from "./providers/provider_breakers.ts";
import { AuxiliaryGate } from "./providers/auxiliary_gate.ts";
import { ProtectedValues } from "./security/protected_values.ts";
import { ChannelService } from "./channels/channel_service.ts";
import { channelCall } from "./channels/channel_call.ts";
import { GatewayKeyStore } from "./gateway/key_store.ts";
import { KeyRateLimiter } from "./gateway/rate_limiter.ts";
import { ConversationOwners } from "./gateway/conversation_owners.ts";
import { DIFY_PREFIX } from "./gateway/gateway_app.ts";
import { outputMask } from "./security/output_mask.ts";
import { redactValue } from "./security/redact_value.ts";
import { createProviderHandlers } from "./services/provider_handlers.ts";
import { createHandlers, localDate } from "./services/services.ts";
import { createDispatcher } from "./services/dispatcher.ts";
import type { Dispatcher } from "./server/dispatcher.ts";
import {
  AGENT_WORKERS_DEFAULT,
  SHUTDOWN_WORKER_WAIT_MS,
  STATE_WAL_AUTOCHECKPOINT_PAGES,
  SUBAGENT_MAX_DEPTH_DEFAULT,
} from "./limits.ts";
import { ToolSandboxes } from "./tools/sandbox.ts";
import {
  BUILTIN_TOOLS,
  type CircuitBreakers,
  createCircuitBreakers,
  createLoopDetector,
  type LoopDetector,
  ProcessManager,
  type RunToolContext,
  type ToolDefinition,
} from "@daedalus/tools";
import { createRunToolContext, readRunPermissions } from "./tools/run_tool_context.ts";
import { McpServers } from "./mcp/mcp_servers.ts";
import { McpStatusAnnouncer } from "./mcp/status_announcer.ts";
import { join } from "node:path";
import { sweepOrphanServers } from "./mcp/server_custody.ts";
import { MemoryRefinement } from "./memory/refinement.ts";
import { readCompletedItems } from "./memory/completed_items.ts";
import { workspaceMemoryKey } from "./memory/workspace_key.ts";
import { sweepDeletionManifests, threadFileDirs } from "./threads/deleted_files.ts";

/** Options of {@linkcode openRuntimeCore}. */
export interface RuntimeCoreOptions {
  /** The runtime home. */
  home: string;
  /** Where managed thread workspaces are made. */
  workspacesRoot: string;
  /** Most Runs at once. */
  workers?: number;
  /** Model providers by id (the scripted provider in tests). */
  providers?: Provider[];
  /**
   * Tools Runs may call besides the 21 built-in ones (a tool of a built-in's id replaces
   * it); each runs through the same wrapper with the Run's tool context.
   */
  tools?: ToolDefinition<unknown>[];
  /** The tool sandbox's Worker module (tests swap in a broken one); default the shipped one. */
  sandboxWorkerUrl?: URL;
  /** How long to wait for the home lock. */
  lockTimeoutMs?: number;
  /** Called once a shutdown was requested over RPC. */
  onShutdownRequested?: () => void;
  /** A model's context window, when known (the provider registry's answer). */
  contextWindow?: (providerId: string, modelId: string) => number | undefined;
  /** Unsettled tool work of a Run (for the completion check). */
  unsettledWork?: (runId: string) => string[];
  /**
   * `false` forces automatic thread titles off whatever config.yaml says
   * (`DAEDALUS_THREAD_TITLES=0`); otherwise config.yaml's `auxiliary.thread_titles`
   * decides, read before each call (default on).
   */
  threadTitles?: boolean;
  /** Deepest sub-agent nesting (`DAEDALUS_SUBAGENT_MAX_DEPTH`). Default 2. */
  subagentMaxDepth?: number;
  /** The tools' circuit breakers, keyed by tool id (tests pass a clock). Default: fresh. */
  toolBreakers?: CircuitBreakers;
  /** The providers' circuit breakers, keyed `provider:<id>` (tests pass a clock). Default: fresh. */
  providerBreakers?: CircuitBreakers;
  /**
   * `false` forces background memory refinement off whatever config.yaml says
   * (`DAEDALUS_MEMORY_REFINEMENT=0`); otherwise config.yaml's `auxiliary.memory_refinement`
   * decides, read before each extraction (default on).
   */
  memoryRefinement?: boolean;
  /**
   * Whether the channels (Telegram) poll and deliver (default on). A one-shot `daedalus
   * run` turns them off: it would take the bot's updates away from the runtime that owns
   * them, then exit before answering.
   */
  channels?: boolean;
  /** Secrets protected from the start besides the config's (the access token). */
  protectedSecrets?: readonly string[];
  /**
   * The set to fill and use (so a caller can redact its logs from the first line); a new
   * one by default.
   */
  protectedValues?: ProtectedValues;
}

/** An open runtime core. */
export interface RuntimeCore {
  /** The state store. */
  readonly store: StateStore;
  /** The event hub (the transports' EventSource). */
  readonly hub: EventHub;
  /** The scheduler. */
  readonly scheduler: Scheduler;
  /** The RPC dispatcher. */
  readonly dispatcher: Dispatcher;
  /** Every credential the runtime protects; register secrets issued later here. */
  readonly protectedValues: ProtectedValues;
  /** The gateway's app keys (`<home>/gateway_keys.json`) and their per-key rate limit. */
  readonly gateway: {
    readonly keys: GatewayKeyStore;
    readonly limiter: KeyRateLimiter;
    readonly owners: ConversationOwners;
    /** Where the Dify-compatible API is mounted (config.yaml `gateway.dify_prefix`). */
    readonly difyPrefix: string;
  };
  /** Runs recovered at start: interrupted ones settled, queued ones re-enqueued. */
  readonly recovered: { interrupted: string[]; requeued: string[] };
  /** Cancels Runs, waits for workers (bounded), closes the database, releases the lock. */
  close(): Promise<void>;
}

/**
 * Opens the runtime core on a home: takes the lock, opens state.db, recovers
 * interrupted Runs (running → failed `runtime_interrupted`, queued → re-enqueued in
 * journal order), and starts scheduling.
 *
 * @param options home, workers, providers, tools
 * @returns the core
 * @throws {HomeLockedError} when another runtime holds the home
 */
export async function openRuntimeCore(options: RuntimeCoreOptions): Promise<RuntimeCore> {
  const paths = homePaths(options.home);
  await ensureHome(paths);
  // Read before the lock: a broken keys file stops the start with nothing to undo.
  const gatewayKeysPath = `${options.home}/gateway_keys.json`;
  const gateway = {
    keys: await GatewayKeyStore.open(gatewayKeysPath),
    limiter: new KeyRateLimiter(),
    owners: await ConversationOwners.open(`${options.home}/gateway_conversations.json`),
  };
  const lock: RuntimeLock = await acquireRuntimeLock(paths.lock, {
    timeoutMs: options.lockTimeoutMs,
  });
  // The hub needs the store's latest seq and the store reports every commit to the hub:
  // at once, or once the command that made it has responded (publishing by construction).
  const commits: { hub?: EventHub; holds?: CommitHolds; checkpointer?: IdleCheckpointer } = {};
  let store: StateStore;
  try {
    store = StateStore.open(paths.stateDb, {
      // Checkpoints happen between Runs (idle_checkpoint.ts); a commit makes one only late.
      walAutocheckpointPages: STATE_WAL_AUTOCHECKPOINT_PAGES,
      onCommit: (events) => {
        commits.checkpointer?.noteCommit();
        commits.hub?.noteCommitted(events);
        commits.holds?.committed(events);
      },
    });
  } catch (error) {
    await lock.release();
    throw error;
  }
  const eventHub = commits.hub = new EventHub({
    latestSeq: store.read((db) => replayEvents(db, { afterSeq: 0, limit: 1 }).latestSeq),
    onListenerError: (error) => console.error(`event listener failed: ${error}`),
  });
  const holds = commits.holds = new CommitHolds((events) => eventHub.publish(events));
  let memoryStore: MemoryStore;
  try {
    memoryStore = MemoryStore.open(paths.memoryDb);
  } catch (error) {
    // An incompatible memory.db stops start-up with its message; nothing stays held.
    eventHub.close();
    store.close();
    await lock.release();
    throw error;
  }
  // Filled once the config is read; the process manager starts before it.
  const protectedValues = options.protectedValues ?? new ProtectedValues();
  for (const secret of options.protectedSecrets ?? []) protectedValues.register(secret);
  const manager = new ProcessManager({
    processesRoot: paths.processes,
    maskOutput: outputMask(() => protectedValues.values()),
    onRecord: (record) => {
      try {
        // A command line the model wrote may quote a credential (its arguments are redacted
        // before the call; this also covers records re-adopted from an older runtime).
        const clean = redactValue(record, (text) => protectedValues.redact(text));
        recordProcess(store, clean);
      } catch (error) {
        console.error(`process ${record.processId}: cannot record: ${(error as Error).message}`);
      }
    },
  });
  const config = await readConfig(paths.config).catch((error) => {
    console.error(`config.yaml: ${(error as Error).message}; starting without providers`);
    return defaultConfig();
  });
  const registry = new ProviderRegistry(config, { extraProviders: options.providers ?? [] });
  protectedValues.update(config);
  let channels: ChannelService;
  try {
    // channels.yaml's token and proxy credentials are protected from here on.
    channels = await ChannelService.open({
      home: options.home,
      store,
      protectedValues,
      subscribe: (listener) => eventHub.subscribe(listener),
    });
  } catch (error) {
    memoryStore.close();
    eventHub.close();
    store.close();
    await lock.release();
    throw error;
  }
  // The runtime's own secrets: no tool reads or writes them, in any mode.
  const protectedFiles = [
    paths.config,
    paths.auth,
    paths.sessions,
    gatewayKeysPath,
    `${options.home}/gateway_conversations.json`,
    `${options.home}/channels.yaml`,
    `${options.home}/channels.db`,
  ];
  const sandboxes = new ToolSandboxes(
    paths.artifacts,
    () => protectedValues.values(),
    protectedFiles,
    options.sandboxWorkerUrl,
  );
  const providerOf = (id: string) => registry.provider(id);
  // Titles and refinement use the gated provider: they wait while a user Run is active.
  const auxiliaryGate = new AuxiliaryGate();
  // ... and take one shared slot in turn, each asking its live switch when its turn comes.
  const auxiliaryQueue = new AuxiliaryQueue();
  const auxiliaryForcedOff = {
    threadTitles: options.threadTitles === false,
    memoryRefinement: options.memoryRefinement === false,
  };
  const auxiliarySettings = () => readAuxiliarySettings(paths.config, auxiliaryForcedOff);
  // One set for the runtime: a tool that keeps failing fails fast for every Run (issue 14).
  const toolBreakers = options.toolBreakers ?? createCircuitBreakers();
  // Likewise per provider: every model call of a Run passes its provider's breaker.
  const providerBreakers = options.providerBreakers ?? createCircuitBreakers();
  const auxiliaryProviderOf = (id: string) => {
    const provider = registry.provider(id);
    return provider && auxiliaryGate.auxiliary(id, provider);
  };
  const runProviderId = (runId: string) => {
    try {
      return store.read((db) => readRunConfig(db, runId)).providerId;
    } catch {
      return ""; // no frozen config: the loop settles the Run failed, no provider is used
    }
  };
  // The caller's tools come first (and win over a built-in of the same id): the order is
  // the order the model is offered them in.
  const tools = new Map<string, ToolDefinition<unknown>>();
  for (const tool of [...(options.tools ?? []), ...BUILTIN_TOOLS]) {
    if (!tools.has(tool.id)) tools.set(tool.id, tool);
  }
  // MCP servers add their tools to the same map (after the built-in ones); each status
  // change is journaled as `mcp.status_changed` (runtime-wide: no thread).
  const mcpAnnouncer = new McpStatusAnnouncer(store);
  const mcpServers = new McpServers({
    tools,
    logsRoot: paths.logs,
    redact: (text) => protectedValues.redact(text),
    onChange: (name) => mcpAnnouncer.announce(name, mcpServers.view(name)),
  });
  const today = () => localDate(new Date());
  const refinement = new MemoryRefinement({
    memoryStore,
    cursors: new ExtractionCursors(memoryStore.database),
    readCompletedItems: (threadId, after, limits) =>
      readCompletedItems(store, threadId, after, limits),
    provider: auxiliaryProviderOf,
    protectedValues,
    workspaceKeyOf: (threadId) =>
      workspaceMemoryKey(store.read((db) => getThread(db, threadId)).thread.workspace?.rootUri),
    log: (entry) => {
      if (entry.outcome !== "extracted" || entry.written + entry.merged > 0) {
        console.error(`memory refinement: ${JSON.stringify(entry)}`);
      }
    },
    enabled: auxiliaryForcedOff.memoryRefinement
      ? false
      : async () => (await auxiliarySettings()).memoryRefinement,
    queue: auxiliaryQueue,
  });
  const refineAfter = (runId: string) => {
    const scope = store.read((db) => readRunScope(db, runId));
    const config = store.read((db) => readRunConfig(db, runId));
    refinement.afterRun({
      runId,
      threadId: scope.threadId,
      providerId: config.providerId,
      modelId: config.modelId,
    });
  };
  const titler = new ThreadTitler({
    store,
    provider: auxiliaryProviderOf,
    protectedValues,
    queue: auxiliaryQueue,
    enabled: async () => (await auxiliarySettings()).threadTitles,
  });
  // A Run's loop detector outlives a wait for approval (a new loop picks it up) and goes
  // with the Run's settlement; a restart starts it afresh.
  const loopDetectors = new Map<string, LoopDetector>();
  const loopDetectorOf = (runId: string) => {
    let detector = loopDetectors.get(runId);
    if (detector === undefined) loopDetectors.set(runId, detector = createLoopDetector());
    return detector;
  };
  eventHub.subscribe((event) => {
    if (event.type === "run.settled" && event.runId !== null) loopDetectors.delete(event.runId);
  });
  // Delegated Runs (sub-agents, cross-thread messages) are prepared like a user's
  // (services/run_preparation.ts); the
  // scheduler's tool contexts need it before the handlers exist.
  const delegatedPreparation = {
    store,
    configPath: paths.config,
    registry,
    tools,
    freezer: new RunConfigFreezer(paths.skills, paths.config),
    contextWindow: options.contextWindow,
  };
  // Between Runs: the WAL is checkpointed (not inside a Run's commit), and garbage goes
  // back (V8 would keep it until a far-off limit).
  const checkpointer = commits.checkpointer = new IdleCheckpointer(store.db);
  const heapTrimmer = new HeapTrimmer();
  const betweenRuns = new BetweenRuns(
    () => scheduler.activeCount === 0,
    [() => checkpointer.checkpointIfDue(), () => heapTrimmer.collectIfGrown()],
  );
  const scheduler: Scheduler = new Scheduler({
    store,
    workers: options.workers ?? AGENT_WORKERS_DEFAULT,
    onIdle: () => betweenRuns.runsFinished(),
    execute: (runId, signal) =>
      auxiliaryGate.duringUserRun(runProviderId(runId), () =>
        runAgentLoop(
          {
            store,
            provider: providerOf,
            resolveModel: (providerId, modelId) => ({
              provider: guardProvider(
                registry.resolveModel(providerId, modelId).provider,
                providerBreakers,
              ),
            }),
            fallbackModel: (providerId, modelId) => {
              const fallback = registry.fallback(providerId, modelId);
              return fallback && {
                providerId: fallback.providerId,
                modelId: fallback.model.id,
                provider: guardProvider(fallback.provider, providerBreakers),
                contextWindow: options.contextWindow?.(fallback.providerId, fallback.model.id) ??
                  fallback.model.contextWindow,
                reasoningEffort: fallback.model.reasoningEffort,
              };
            },
            protectedValues,
            tools,
            toolContext: async (run): Promise<RunToolContext> =>
              createRunToolContext(
                {
                  store,
                  home: options.home,
                  artifactsRoot: paths.artifacts,
                  protectedFiles,
                  protectedValues,
                  scheduler,
                  processes: manager,
                  memory: memoryStore,
                  workspacesRoot: options.workspacesRoot,
                  subagentMaxDepth: options.subagentMaxDepth ?? SUBAGENT_MAX_DEPTH_DEFAULT,
                  prepareDelegated: (request) => prepareDelegatedRun(delegatedPreparation, request),
                  breakers: toolBreakers,
                  loopDetector: loopDetectorOf,
                },
                run,
                await readRunPermissions(paths.config),
              ),
            sandboxes,
            today,
            unsettledWork: options.unsettledWork ?? ((runId) => runningForeground(manager, runId)),
            home: options.home,
            recall: (query, root) =>
              recallMemories(memoryStore.database, {
                query,
                workspaceKey: workspaceMemoryKey(root),
              })
                .memories,
            onSettled: (runId) => {
              if (options.threadTitles !== false) titler.afterRun(runId);
              refineAfter(runId);
            },
          },
          runId,
          signal,
        )),
  });
  await sweepDeletedThreadFiles(store, paths);
  const coreHandlers = createHandlers({
    store,
    scheduler,
    registry,
    protectedValues,
    providerHandlers: createProviderHandlers({
      configPath: paths.config,
      registry,
      protectedValues,
    }),
    skillsRoot: paths.skills,
    configPath: paths.config,
    protectedFiles,
    processManager: manager,
    memoryStore,
    tools,
    workspacesRoot: options.workspacesRoot,
    threadFiles: threadFileDirs(paths),
    contextWindow: options.contextWindow,
    requestShutdown: () => options.onShutdownRequested?.(),
    auxiliaryForcedOff,
    breakers: { toolBreakers, providerBreakers },
    mcpServers,
    gateway,
  });
  const handlers = { ...coreHandlers, ...channels.handlers() };
  // Runs waiting for an approval stay waiting across a restart; their threads stay taken
  // (before the queued Runs are queued again, so none of them starts on such a thread).
  scheduler.adoptWaiting();
  const recovered = recover(store, scheduler);
  for (const record of await manager.recover(store.read((db) => readRunningProcessRecords(db)))) {
    recordProcess(store, record);
  }
  // Stdio servers a crashed runtime left running go first (a few `ps` calls at most);
  // then, in the background, no server however slow or broken holds up the start (only
  // the SDK's modules are loaded first, and only when config.yaml names a server).
  await sweepOrphanServers(join(paths.logs, "mcp"));
  await mcpServers.start(config.mcp);
  const dispatcher = createDispatcher(handlers, { protectedValues, holds });
  if (options.channels !== false) channels.start(channelCall(dispatcher, "telegram"));
  let closed: Promise<void> | undefined;
  return {
    store,
    hub: eventHub,
    scheduler,
    dispatcher,
    protectedValues,
    gateway: { ...gateway, difyPrefix: config.gateway?.dify_prefix ?? DIFY_PREFIX },
    recovered,
    close: () =>
      closed ??= (async () => {
        await channels.close(); // replies of Runs cancelled below are enqueued after the restart
        await scheduler.shutdown(SHUTDOWN_WORKER_WAIT_MS);
        betweenRuns.close();
        mcpAnnouncer.close();
        await mcpServers.close();
        auxiliaryQueue.close(); // waiting calls are dropped; the running one is aborted next
        await Promise.all([titler.close(), refinement.close()]);
        await manager.close();
        await gateway.keys.flush();
        sandboxes.close();
        memoryStore.close();
        eventHub.close();
        store.close();
        await lock.release();
      })(),
  };
}

/** Foreground commands of a Run still running: the completion check names them. */
function runningForeground(manager: ProcessManager, runId: string): string[] {
  return manager.records()
    .filter((record) => record.runId === runId && record.state === "running" && !record.background)
    .map((record) => `command \`${record.command}\` (${record.processId}) is still running`);
}

function recover(
  store: StateStore,
  scheduler: Scheduler,
): { interrupted: string[]; requeued: string[] } {
  const interrupted: string[] = [];
  const requeued: string[] = [];
  for (const run of store.read((db) => listRecoverableRuns(db))) {
    if (run.status === "running") {
      settleRun(store, run.runId, "failed", "runtime_interrupted");
      interrupted.push(run.runId);
    }
  }
  for (const run of store.read((db) => listRecoverableRuns(db))) {
    scheduler.enqueue(run.runId, run.threadId);
    requeued.push(run.runId);
  }
  return { interrupted, requeued };
}

/**
 * Removes the files of thread deletions that committed before a crash stopped their
 * removal (threads/deleted_files.ts). A failure costs disk space only: start-up goes on.
 */
async function sweepDeletedThreadFiles(store: StateStore, paths: HomePaths): Promise<void> {
  try {
    const swept = await sweepDeletionManifests(
      threadFileDirs(paths),
      (threadId) => store.read((db) => isThreadDeleted(db, threadId)),
    );
    if (swept.removed.length > 0) {
      console.error(`thread.delete: removed ${swept.removed.length} file(s) left by a crash`);
    }
    for (const { file, problem } of swept.skipped) {
      console.error(`thread.delete: ${file} not acted on (${problem})`);
    }
    for (const { path, message } of swept.failed) {
      console.error(`thread.delete: cannot remove ${path}: ${message}`);
    }
  } catch (error) {
    console.error(`thread.delete: sweep failed: ${(error as Error).message}`);
  }
}

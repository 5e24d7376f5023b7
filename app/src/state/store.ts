/**
 * The app's live state as signals, fed by one `@daedalus/client` connection: the
 * connection state, the thread list, the open conversation, the models. The merging
 * itself is the pure code in `projection.ts`; this module only wires it to the client.
 *
 * @module
 */
import { computed, effect, signal } from "@preact/signals";
import {
  type AttachmentInput,
  ClientError,
  type ConnectionState,
  createClient,
  type DaedalusClient,
  type FileChange,
  type JournalEvent,
  type Model,
  type ProcessOutputPage,
  type ReasoningEffort,
  type Thread,
} from "@daedalus/client";
import {
  activeRunId,
  applyConversationEvents,
  applyOlderTurns,
  applyThreadEvents,
  applyThreadList,
  applyTurnList,
  type ConversationState,
  emptyConversation,
  emptyThreads,
  type ThreadsState,
  visibleThreads,
  withoutThread,
} from "./projection.ts";
import { fallbackModel, followsDefaultModel, lastUsedModel } from "./thread_model.ts";
import { latestRun } from "./run_announcement.ts";
import { messageOfTurn } from "./send_again.ts";
import {
  addressedBranch,
  addressOf,
  branchOfAddress,
  START_ADDRESS,
  threadOfAddress,
} from "./address.ts";
import { callFailure } from "./call_failure.ts";
import { t } from "../i18n/i18n.ts";

/** The client's connection state. */
export const connection = signal<ConnectionState>("starting");
/** Whether the browser believes it has a network (`navigator.onLine`, kept by its events). */
export const browserOnline = signal<boolean>(globalThis.navigator?.onLine ?? true);
/**
 * The connection as the banner shows it: the client keeps trying for as long as the page
 * is open, so "offline" is what a browser without a network is told while not connected.
 */
export const shownConnection = computed<ConnectionState>(() =>
  connection.value !== "connected" && !browserOnline.value ? "offline" : connection.value
);
/** The sidebar's threads. */
export const threads = signal<ThreadsState>(emptyThreads());
/** The sidebar's list, derived. */
export const threadList = computed(() => visibleThreads(threads.value));
/** The open thread's conversation, or null when none is open. */
export const conversation = signal<ConversationState | null>(null);
/** The Run Stop would cancel. */
export const activeRun = computed(() =>
  conversation.value ? activeRunId(conversation.value) : null
);
/** The open conversation's latest Run (changes only when another Run becomes latest). */
export const latestRunId = computed(() => latestRun(conversation.value)?.id ?? null);
/** Enabled models from `model.list`. */
export const models = signal<Model[]>([]);
/** The model the composer sends with, as `providerId/modelId` (thread_model.ts says which). */
export const selectedModel = signal<string | null>(null);
/** Settings' default model (`settings.read` `defaultModel`) as `providerId/modelId`, or null. */
export const defaultModel = signal<string | null>(null);
/** The last error worth showing, or null. */
export const lastError = signal<string | null>(null);
/** Where the sidebar's next page of threads starts, or null when all are loaded. */
export const moreThreadsCursor = signal<string | null>(null);

let client: DaedalusClient | null = null;

/**
 * Connects (with the session cookie; no token) and starts loading.
 *
 * @param url the runtime's origin
 */
export function start(url: string): void {
  // A page stays open while the runtime restarts or the laptop sleeps: it keeps trying
  // (seed 000's ladder, then up to 5 s apart) and never asks the user to click Retry.
  client = createClient({
    url,
    clientInfo: { name: "daedalus-app", version: "0.1.0" },
    keepReconnecting: true,
  });
  client.onStateChange((state) => {
    connection.value = state;
    if (state === "connected") caughtUp();
  });
  client.onEvent(onEvent);
  followAddress();
  followShownBranch();
  // Back/forward and an edited address open what they name.
  globalThis.addEventListener?.("popstate", followAddress);
  globalThis.addEventListener?.("hashchange", followAddress);
  // The network came back or the tab was brought forward: try now, not after the wait.
  globalThis.addEventListener?.("online", () => {
    browserOnline.value = true;
    tryNow();
  });
  globalThis.addEventListener?.("offline", () => (browserOnline.value = false));
  // Read again now that the listeners are in place: an "offline" event that came while the
  // session was being established (before start) would otherwise leave the banner saying
  // "Connecting…" for as long as the network is down.
  browserOnline.value = globalThis.navigator?.onLine ?? true;
  globalThis.document?.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") tryNow();
  });
}

/**
 * Opens the thread (at the branch) the address names, without adding a history entry, or
 * the start screen.
 */
function followAddress(): void {
  const hash = globalThis.location?.hash ?? "";
  const threadId = threadOfAddress(hash);
  if (threadId === null) {
    if (hash !== "" && hash !== START_ADDRESS) history.replaceState(null, "", START_ADDRESS);
    conversation.value = null;
    return;
  }
  const branchId = branchOfAddress(hash);
  const otherBranch = branchId !== null && branchId !== shownBranch(threadId);
  if (conversation.value?.threadId !== threadId || otherBranch) {
    void openThread(threadId, { address: "keep", branchId });
  }
}

/** The branch a listed thread shows, or null when the thread is not listed (yet). */
function shownBranch(threadId: string): string | null {
  const thread = threads.value.byId[threadId];
  return thread ? thread.activeBranchId ?? thread.defaultBranchId : null;
}

/** Whether the shown history has a turn with other versions (the ‹ 1/2 › switcher). */
function isForked(state: ConversationState | null): boolean {
  return state?.turns.some((turn) => (turn.siblings?.count ?? 1) > 1) ?? false;
}

/**
 * Keeps the address on the branch the open thread shows when it changes by itself (a
 * fork from Edit or Regenerate, another tab switching it): replaced, not a new entry.
 */
function followShownBranch(): void {
  effect(() => {
    const open = conversation.value?.threadId ?? null;
    const thread = open === null ? undefined : threads.value.byId[open];
    const hash = globalThis.location?.hash ?? "";
    // Only once the address is this thread's and its turns are in: while it opens, the
    // address is the one being opened (Back to a branch must not be overwritten).
    if (!thread || threadOfAddress(hash) !== open) return;
    if (conversation.value?.snapshotSeq === null) return;
    const next = addressOf(open, addressedBranch(thread, isForked(conversation.value)));
    if (hash !== next) history.replaceState(null, "", next);
  });
}

/** Puts the open thread (or the start screen) in the address bar, as a new history entry. */
function showAddress(threadId: string | null, mode: "push" | "replace" = "push"): void {
  const location = globalThis.location;
  if (!location) return;
  const branchId = threadId === null ? null : addressedBranch(
    threads.value.byId[threadId],
    conversation.value?.threadId === threadId && isForked(conversation.value),
  );
  const next = addressOf(threadId, branchId);
  if (location.hash === next || (threadId === null && location.hash === "")) return;
  if (mode === "push") history.pushState(null, "", next);
  else history.replaceState(null, "", next);
}

/** What the start screen tells the user once (a thread open here was deleted), or null. */
export const startNotice = signal<string | null>(null);

/**
 * Drops a deleted thread from the sidebar and, when it is open, shows the start screen in
 * its place (the address is replaced: back does not return to a thread that is gone).
 *
 * @param threadId the thread
 */
export function closeDeletedThread(threadId: string): void {
  threads.value = withoutThread(threads.value, threadId);
  if (conversation.value?.threadId === threadId) {
    conversation.value = null;
    showAddress(null, "replace");
  }
}

/** The project folder the thread started from the start screen will work in, if any. */
export const pendingWorkspace = signal<{ rootUri: string; name?: string } | null>(null);

/**
 * Shows the start screen: no thread is made until its first message is sent, in the
 * project folder given here (or a managed folder of its own).
 *
 * @param workspace the project folder and its name, for a project thread
 */
export function startNewThread(workspace?: { rootUri: string; name?: string }): void {
  conversation.value = null;
  pendingWorkspace.value = workspace ?? null;
  showAddress(null);
}

function tryNow(): void {
  client?.reconnect();
}

/**
 * Connected (again): the replay brings loaded state up to date by itself; what never
 * loaded (the page opened while the runtime was away, or a read cut off by the drop) is
 * loaded now.
 */
function caughtUp(): void {
  if (threads.value.snapshotSeq === null) void loadInitial();
  const open = conversation.value;
  // A conversation without a snapshot never got its first page (what "Loading…" shows).
  if (open && open.snapshotSeq === null && conversationLoading !== open.threadId) {
    void openThread(open.threadId, { address: "keep" });
  }
}

/** Counts {@linkcode openThread} calls, so an overtaken one stops. */
let openings = 0;

/** The thread whose first page of turns is being read (a read waiting for the connection). */
let conversationLoading: string | null = null;

const eventListeners = new Set<(event: JournalEvent) => void>();

/**
 * Listens to every live journal event (after the app's own state took it in).
 *
 * @param listener called once per event, in seq order
 * @returns a function that stops listening
 */
export function onJournalEvent(listener: (event: JournalEvent) => void): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

function onEvent(event: JournalEvent): void {
  threads.value = applyThreadEvents(threads.value, [event]);
  const open = conversation.value;
  if (event.type === "thread.deleted" && open?.threadId === event.payload.threadId) {
    // Deleted from another page (or device) while open here: the start screen says so.
    closeDeletedThread(event.payload.threadId);
    startNotice.value = t("delete.deletedNotice");
  } else if (open && event.threadId === open.threadId) {
    conversation.value = applyConversationEvents(open, [event]);
  }
  for (const listener of eventListeners) listener(event);
}

/**
 * The connection every state module calls through (`rpc().call(method, params)`).
 *
 * @returns the started client
 */
export function rpc(): DaedalusClient {
  if (!client) throw new Error("not started");
  return client;
}
const need = rpc;

/**
 * Shows an error in the app's alert line.
 *
 * @param error what failed
 */
export function report(error: unknown): void {
  if (isConnectionError(error)) {
    // The banner already says the connection is gone, and the reconnect retries what
    // matters (caughtUp): repeating it here with a raw close code helps nobody.
    return;
  }
  lastError.value = error instanceof Error ? error.message : String(error);
}

function isConnectionError(error: unknown): boolean {
  return error instanceof ClientError &&
    (error.code === "connection_lost" || error.code === "offline" || error.code === "closed");
}

async function loadInitial(): Promise<void> {
  try {
    const [page, modelList, settings] = await Promise.all([
      need().call("thread.list", { limit: 100 }),
      need().call("model.list", {}),
      // Only for the composer's first pick: without it the first enabled model is picked.
      need().call("settings.read", {}).catch(() => null),
    ]);
    threads.value = applyThreadList(threads.value, page);
    moreThreadsCursor.value = page.hasMore ? page.nextCursor : null;
    if (settings) {
      const chosen = settings.settings.defaultModel;
      defaultModel.value = chosen ? `${chosen.providerId}/${chosen.modelId}` : null;
    }
    keepEnabledModels(modelList.models);
  } catch (error) {
    report(error);
  }
}

/**
 * Keeps the enabled models; a choice no longer among them falls back to the default model
 * (while enabled), else the first.
 */
function keepEnabledModels(list: readonly Model[]): void {
  models.value = list.filter((model) => model.enabled);
  const keys = models.value.map((model) => `${model.providerId}/${model.id}`);
  if (selectedModel.value === null || !keys.includes(selectedModel.value)) {
    selectedModel.value = fallbackModel(keys, defaultModel.value);
  }
}

/**
 * Takes in Settings' default model. With `follow` (the user just chose it) the composer
 * switches to it, unless the open thread ran with a model of its own.
 *
 * @param choice the model as `providerId/modelId`, or null for none
 * @param follow whether the composer follows the change
 */
export function applyDefaultModel(choice: string | null, follow: boolean): void {
  defaultModel.value = choice;
  if (!follow || choice === null || !followsDefaultModel(conversation.value)) return;
  if (models.value.some((m) => `${m.providerId}/${m.id}` === choice)) selectedModel.value = choice;
}

/** Reads `model.list` again for the composer (after Settings changed a provider or model). */
export async function refreshModels(): Promise<void> {
  try {
    keepEnabledModels((await need().call("model.list", {})).models);
  } catch (error) {
    report(error);
  }
}

/** Paging back through the open thread: the cursor of the next older page, if any. */
export const olderTurns = signal<{ cursor: string | null; loading: boolean }>({
  cursor: null,
  loading: false,
});

/**
 * Opens a thread: an empty conversation at once, filled by `turn.list` with its newest
 * turns (older pages come with {@linkcode loadOlderTurns}).
 *
 * @param threadId the thread
 */
export async function openThread(
  threadId: string,
  options: { address?: "push" | "replace" | "keep"; branchId?: string | null } = {},
): Promise<void> {
  const generation = ++openings;
  conversation.value = emptyConversation(threadId);
  startNotice.value = null;
  olderTurns.value = { cursor: null, loading: false };
  if (options.branchId && options.branchId !== shownBranch(threadId)) {
    // A branch's address: show that branch (the thread then continues it, as after ‹ ›).
    await showBranch(threadId, options.branchId);
    // Back and forward fire popstate and hashchange: the later opening carries on alone.
    if (generation !== openings) return;
  }
  const address = options.address ?? "push";
  if (address !== "keep") showAddress(threadId, address);
  conversationLoading = threadId;
  try {
    const page = await need().call("turn.list", { threadId, limit: 50, direction: "backward" });
    if (conversation.value?.threadId === threadId) {
      conversation.value = applyTurnList(conversation.value, page);
      olderTurns.value = { cursor: page.nextCursor, loading: false };
      // The thread's own model comes back with it, while it is still enabled.
      const used = lastUsedModel(conversation.value);
      if (used && models.value.some((m) => `${m.providerId}/${m.id}` === used)) {
        selectedModel.value = used;
      }
    }
  } catch (error) {
    if (
      callFailure(error).code === "thread_not_found" && conversation.value?.threadId === threadId
    ) {
      // An old link or a bookmark of a deleted thread: back to the start screen, saying why.
      conversation.value = null;
      showAddress(null, "replace");
      report(new Error(t("reason.error.thread_not_found")));
      return;
    }
    report(error);
  } finally {
    if (conversationLoading === threadId) conversationLoading = null;
  }
}

/**
 * Makes `branchId` the branch the thread shows; a branch that is gone (or of another
 * thread) is said and the thread opens as it is.
 *
 * @param threadId the thread
 * @param branchId the branch
 * @returns whether it is shown now
 */
export async function showBranch(threadId: string, branchId: string): Promise<boolean> {
  try {
    const { thread } = await need().call("thread.set_active_branch", { threadId, branchId });
    threads.value = {
      ...threads.value,
      byId: { ...threads.value.byId, [thread.id]: thread },
    };
    return true;
  } catch (error) {
    const gone = callFailure(error).code === "branch_not_found";
    report(gone ? new Error(t("reason.error.branch_not_found")) : error);
    return false;
  }
}

/** Loads the open thread's next older page of turns, unless one is loading or none is left. */
export async function loadOlderTurns(): Promise<void> {
  const open = conversation.value;
  const { cursor, loading } = olderTurns.value;
  if (!open || cursor === null || loading) return;
  olderTurns.value = { cursor, loading: true };
  try {
    const page = await need().call("turn.list", {
      threadId: open.threadId,
      cursor,
      limit: 50,
      direction: "backward",
    });
    if (conversation.value?.threadId !== open.threadId) return;
    conversation.value = applyOlderTurns(conversation.value, page.turns);
    olderTurns.value = { cursor: page.nextCursor, loading: false };
  } catch (error) {
    if (conversation.value?.threadId === open.threadId) {
      olderTurns.value = { cursor, loading: false };
    }
    report(error);
  }
}

/**
 * Renames the open thread (`thread.rename`); the sidebar follows the event.
 *
 * @param title the new title
 * @returns whether it was renamed
 */
export async function renameThread(title: string): Promise<boolean> {
  const open = conversation.value;
  if (!open || title.trim() === "") return false;
  try {
    const { event } = await need().call("thread.rename", {
      threadId: open.threadId,
      title: title.trim(),
    });
    if (event) threads.value = applyThreadEvents(threads.value, [event]);
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}

/** Archives the open thread (`thread.archive`) and closes it. */
export async function archiveThread(): Promise<void> {
  const open = conversation.value;
  if (!open) return;
  try {
    const { event } = await need().call("thread.archive", { threadId: open.threadId });
    if (event) threads.value = applyThreadEvents(threads.value, [event]);
    if (conversation.value?.threadId === open.threadId) {
      conversation.value = null;
      showAddress(null, "replace");
    }
  } catch (error) {
    report(error);
  }
}

/**
 * Lists archived threads, newest first (`thread.list` with `archived: true`).
 *
 * @returns the first page, or null when it could not be read (the error is reported)
 */
export async function listArchived(): Promise<Thread[] | null> {
  try {
    const page = await need().call("thread.list", { archived: true, limit: 100 });
    return page.threads;
  } catch (error) {
    report(error);
    return null;
  }
}

/**
 * Brings an archived thread back (`thread.unarchive`); the sidebar lists it again.
 *
 * @param threadId the thread
 * @returns whether it was unarchived
 */
export async function unarchiveThread(threadId: string): Promise<boolean> {
  try {
    const { thread, event } = await need().call("thread.unarchive", { threadId });
    threads.value = event
      ? applyThreadEvents(threads.value, [event])
      : { ...threads.value, byId: { ...threads.value.byId, [thread.id]: thread } };
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}

/** Loads the sidebar's next page of threads (beyond the first 100). */
export async function loadMoreThreads(): Promise<void> {
  const cursor = moreThreadsCursor.value;
  if (cursor === null) return;
  try {
    const page = await need().call("thread.list", { cursor, limit: 100 });
    threads.value = applyThreadList(threads.value, page);
    moreThreadsCursor.value = page.hasMore ? page.nextCursor : null;
  } catch (error) {
    report(error);
  }
}

/**
 * Creates a thread and opens it: in its own managed folder, or in a project folder.
 *
 * @param workspace the project folder (absolute path) and its name, for a project thread
 * @returns whether it was created
 */
export async function newThread(
  workspace?: { rootUri: string; name?: string },
): Promise<boolean> {
  const problem = await createThread(workspace);
  if (problem !== null) report(problem);
  return problem === null;
}

/**
 * Creates a thread and opens it, like {@linkcode newThread}, but hands a refusal back to
 * the caller (a dialog shows it beside its field, above its own backdrop).
 *
 * @param workspace the project folder (absolute path) and its name, for a project thread
 * @returns null when it was created, else what went wrong
 */
export async function createThread(
  workspace?: { rootUri: string; name?: string },
): Promise<Error | null> {
  try {
    const { thread, event } = await need().call("thread.create", {
      clientRequestId: crypto.randomUUID(),
      workspace,
    });
    threads.value = applyThreadEvents(threads.value, [event]);
    // Made from the start screen, the thread takes the start screen's place in the
    // history (as a chat app does): Back then leaves the thread, not to an empty screen.
    const fromStartScreen = threadOfAddress(globalThis.location?.hash ?? "") === null;
    await openThread(thread.id, { address: fromStartScreen ? "replace" : "push" });
    return null;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Sends a message in the open thread with the selected model.
 *
 * @param content the text
 * @param extra uploaded attachments, the reasoning effort (null: auto; left out when
 *   the model has none), and the branch (the thread's active branch when absent)
 * @returns whether it was accepted
 */
export async function send(
  content: string,
  extra: {
    attachments?: AttachmentInput[];
    reasoningEffort?: ReasoningEffort | null;
    branchId?: string;
  } = {},
): Promise<boolean> {
  const choice = selectedModel.value;
  if (!choice || content.trim() === "") return false;
  // From the start screen the thread is made now, with its first message.
  if (!conversation.value && !await newThread(pendingWorkspace.value ?? undefined)) return false;
  const open = conversation.value;
  if (!open) return false;
  pendingWorkspace.value = null;
  const slash = choice.indexOf("/");
  try {
    await need().call("turn.start", {
      threadId: open.threadId,
      content,
      providerId: choice.slice(0, slash),
      modelId: choice.slice(slash + 1),
      clientRequestId: crypto.randomUUID(),
      ...(extra.branchId ? { branchId: extra.branchId } : {}),
      ...(extra.attachments?.length ? { attachments: extra.attachments } : {}),
      ...(extra.reasoningEffort !== undefined ? { reasoningEffort: extra.reasoningEffort } : {}),
    });
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}

/**
 * Sends a turn's message again as a new turn (after its Run failed or was cancelled),
 * with the model now selected.
 *
 * @param turnId the turn
 * @param reasoningEffort the effort to send (the composer's choice for the model)
 * @returns whether it was accepted
 */
export function sendAgain(
  turnId: string,
  reasoningEffort?: ReasoningEffort | null,
): Promise<boolean> {
  const open = conversation.value;
  const message = open ? messageOfTurn(open, turnId) : null;
  if (!message) return Promise.resolve(false);
  return send(message.content, { attachments: message.attachments, reasoningEffort });
}

/**
 * Adds text to the open thread's active Run (`run.steer`); it enters the Run's next
 * model call. `expectedRunId` guards against steering a Run the user no longer sees.
 *
 * @param content the text
 * @param attachments uploaded attachments that go with it
 * @returns whether it was accepted
 */
export async function steer(
  content: string,
  attachments: AttachmentInput[] = [],
): Promise<boolean> {
  const runId = activeRun.value;
  if (!runId || content.trim() === "") return false;
  try {
    const result = await need().call("run.steer", {
      runId,
      content,
      expectedRunId: runId,
      clientRequestId: crypto.randomUUID(),
      ...(attachments.length ? { attachments } : {}),
    });
    return result.accepted;
  } catch (error) {
    report(error);
    return false;
  }
}

/**
 * Continues a failed or cancelled Run in its Turn (`run.resume`): its completed steps stay,
 * their tools are not run again.
 *
 * @param runId the Run
 * @returns whether it was accepted
 */
export async function resumeRun(runId: string): Promise<boolean> {
  try {
    await need().call("run.resume", { runId, clientRequestId: crypto.randomUUID() });
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}

/** The write or edit whose diff is open (its tool call item), or null. */
export const openDiff = signal<string | null>(null);

/**
 * Reads a recorded write or edit of the open thread (`file.change.get`).
 *
 * @param toolCallItemId the write or edit's tool call item
 * @returns the change, or null when it could not be read (the error is reported)
 */
export async function loadFileChange(toolCallItemId: string): Promise<FileChange | null> {
  const open = conversation.value;
  if (!open) return null;
  try {
    return await need().call("file.change.get", { threadId: open.threadId, toolCallItemId });
  } catch (error) {
    report(error);
    return null;
  }
}

/**
 * Reads a page of a managed process's output (`process.read`) in the open thread.
 *
 * @param processId the process
 * @param cursor the byte offset to read from (the previous page's `nextCursor`)
 * @param limit the most bytes to read (the runtime's default without)
 * @returns the page, or null when it could not be read (the error is reported)
 */
export async function readProcess(
  processId: string,
  cursor?: number,
  limit?: number,
): Promise<ProcessOutputPage | null> {
  const open = conversation.value;
  if (!open) return null;
  try {
    return await need().call("process.read", {
      threadId: open.threadId,
      processId,
      cursor,
      limit,
    });
  } catch (error) {
    report(error);
    return null;
  }
}

/**
 * Stops a managed process and its tree (`process.stop`) in the open thread.
 *
 * @param processId the process
 * @returns its final page, or null when the stop failed (the error is reported)
 */
export async function stopProcess(processId: string): Promise<ProcessOutputPage | null> {
  const open = conversation.value;
  if (!open) return null;
  try {
    return await need().call("process.stop", { threadId: open.threadId, processId });
  } catch (error) {
    report(error);
    return null;
  }
}

/** Cancels the active Run of the open thread. */
export async function stop(): Promise<void> {
  const runId = activeRun.value;
  if (!runId) return;
  try {
    await need().call("run.cancel", { runId });
  } catch (error) {
    report(error);
  }
}

/** Starts a new round of connection attempts (the banner's Retry). */
export function retry(): void {
  client?.reconnect();
}

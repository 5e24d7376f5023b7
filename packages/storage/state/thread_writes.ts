/**
 * Thread writes: create (idempotent on clientRequestId), rename, archive, unarchive.
 *
 * @module
 */
import { newId, type Thread, type ThreadSource, type Workspace } from "@daedalus/protocol";
import type { StateDatabase } from "./database.ts";
import type { Committed, StateStore } from "./store.ts";
import type { EventDraft } from "./journal.ts";
import { StoreError } from "./errors.ts";
import { statement } from "../_statements.ts";
import { THREAD_COLUMNS, threadFromRow } from "./_rows.ts";
import { managedWorkspacePath } from "../home.ts";

/** What {@linkcode createThread} needs. */
export interface CreateThreadInput {
  /** Provisional title, or null. */
  title?: string | null;
  /** Makes retries return the first result. */
  clientRequestId?: string;
  /** A project folder (absolute path) instead of a managed workspace. */
  workspace?: { rootUri: string; name?: string };
  /** Where managed workspaces are made (`DAEDALUS_WORKSPACES_ROOT`). */
  workspacesRoot: string;
  /** Who the thread is made for when not the owner (a gateway app key); null or absent: the owner. */
  source?: ThreadSource | null;
  /** The agent profile it is bound to (in its settings, from `thread.created` on). */
  agentId?: string;
}

/** The result of {@linkcode createThread}. */
export interface CreateThreadResult {
  /** The thread. */
  thread: Thread;
  /** Whether this call created it (false for an idempotent retry). */
  created: boolean;
}

/**
 * Creates a thread with its default branch and workspace folder. A retry with the
 * same clientRequestId and the same title and workspace returns the first result.
 *
 * @param store the state store
 * @param input title, clientRequestId, workspace
 * @returns the thread and its thread.created event
 * @throws {StoreError} `idempotency_conflict` when the clientRequestId was used with
 *   other params; `workspace_unavailable` when a project folder is not a directory
 */
export async function createThread(
  store: StateStore,
  input: CreateThreadInput,
): Promise<Committed<CreateThreadResult>> {
  const replay = replayCreate(store.db, input);
  if (replay) return { result: { thread: replay, created: false }, events: [] };

  const threadId = newId("thread");
  const createdAt = store.now();
  const workspace = await prepareWorkspace(threadId, new Date(createdAt), input);
  // A retry that raced this one (or conflicts with it) wins inside the transaction;
  // the folder made for the loser is removed again.
  const removeMadeFolder = async () => {
    if (workspace.kind === "managed" && workspace.rootUri) {
      await Deno.remove(workspace.rootUri).catch(() => {});
    }
  };
  let committed: Committed<CreateThreadResult>;
  try {
    committed = store.write(({ db, now, append }) => {
      const raced = replayCreate(db, input);
      if (raced) return { thread: raced, created: false };
      return appendCreated(append, threadId, createdAt, now, workspace, input);
    });
  } catch (error) {
    await removeMadeFolder();
    throw error;
  }
  if (!committed.result.created) await removeMadeFolder();
  return committed;
}

function appendCreated(
  append: (draft: EventDraft) => unknown,
  threadId: string,
  createdAt: string,
  now: string,
  workspace: Workspace,
  input: CreateThreadInput,
): CreateThreadResult {
  {
    const defaultBranchId = newId("branch");
    const thread: Thread = {
      id: threadId,
      title: input.title ?? null,
      defaultBranchId,
      workspace,
      createdAt,
      updatedAt: now,
      archivedAt: null,
      activeBranchId: defaultBranchId,
      source: input.source ?? null,
      ...(input.agentId !== undefined ? { agentId: input.agentId } : {}),
    };
    append({
      type: "thread.created",
      threadId,
      branchId: thread.defaultBranchId,
      payload: {
        thread,
        branch: { id: thread.defaultBranchId, threadId, createdAt, isDefault: true },
        clientRequestId: input.clientRequestId ?? null,
        titleSource: thread.title === null ? null : "provisional",
      },
    });
    return { thread, created: true };
  }
}

function replayCreate(db: StateDatabase, input: CreateThreadInput): Thread | null {
  if (!input.clientRequestId) return null;
  const row = statement(
    db.connection,
    `SELECT e.payload_json FROM threads t JOIN events e
       ON e.thread_id = t.id AND e.event_type = 'thread.created'
     WHERE t.client_request_id = ?`,
  ).get(input.clientRequestId);
  if (!row) return null;
  const original = JSON.parse(String(row.payload_json)).thread as Thread;
  const sameTitle = original.title === (input.title ?? null);
  const sameWorkspace = input.workspace
    ? original.workspace?.kind === "project" &&
      original.workspace.rootUri === input.workspace.rootUri
    : original.workspace?.kind !== "project";
  const sameSource = JSON.stringify(original.source ?? null) ===
    JSON.stringify(input.source ?? null);
  if (!sameTitle || !sameWorkspace || !sameSource) {
    throw new StoreError(
      "idempotency_conflict",
      `clientRequestId "${input.clientRequestId}" was already used with different params`,
    );
  }
  return readThread(db, original.id);
}

async function prepareWorkspace(
  threadId: string,
  created: Date,
  input: CreateThreadInput,
): Promise<Workspace> {
  if (input.workspace) {
    const root = input.workspace.rootUri;
    let isDirectory = false;
    try {
      isDirectory = (await Deno.stat(root)).isDirectory;
    } catch (error) {
      throw new StoreError("workspace_unavailable", `Project folder ${root} cannot be read`, {
        cause: error,
      });
    }
    if (!isDirectory || !isAbsolutePath(root)) {
      throw new StoreError(
        "workspace_unavailable",
        `Project folder ${root} is not an absolute path to a folder`,
      );
    }
    return {
      id: newId("workspace"),
      name: input.workspace.name ?? baseName(root),
      kind: "project",
      rootUri: root,
    };
  }
  const root = managedWorkspacePath(input.workspacesRoot, created, threadId);
  try {
    await Deno.mkdir(root, { recursive: true });
  } catch (error) {
    throw new StoreError("workspace_unavailable", `Cannot create workspace folder ${root}`, {
      cause: error,
    });
  }
  return { id: newId("workspace"), name: localStamp(created), kind: "managed", rootUri: root };
}

function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

function baseName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts.at(-1) ?? path;
}

function localStamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * Reads one thread's row as the wire DTO.
 *
 * @param db the database
 * @param threadId the thread
 * @returns the thread
 * @throws {StoreError} `thread_not_found`
 */
export function readThread(db: StateDatabase, threadId: string): Thread {
  const row = statement(db.connection, `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = ?`).get(
    threadId,
  );
  if (!row) throw new StoreError("thread_not_found", `Thread ${threadId} does not exist`);
  return threadFromRow(row);
}

/** The result of a rename, archive or unarchive. */
export interface ThreadChange {
  /** The thread after the change. */
  thread: Thread;
  /** False when the thread already was in that state (nothing was written). */
  changed: boolean;
}

/**
 * Renames a thread. `source` "user" marks the title as the user's, which automatic
 * titles never replace; an "auto" rename is skipped when the user named the thread.
 *
 * @param store the state store
 * @param threadId the thread
 * @param title the new title
 * @param source who named it
 * @returns the thread and whether it changed
 * @throws {StoreError} `thread_not_found`
 */
export function renameThread(
  store: StateStore,
  threadId: string,
  title: string,
  source: "user" | "auto" = "user",
): Committed<ThreadChange> {
  return store.write(({ db, now, append }) => {
    const current = readThread(db, threadId);
    const row = statement(db.connection, "SELECT title_source FROM threads WHERE id = ?").get(
      threadId,
    );
    const userNamed = row?.title_source === "user";
    if (
      (source === "auto" && userNamed) ||
      (current.title === title && (userNamed || source === "auto"))
    ) {
      return { thread: current, changed: false };
    }
    const thread = { ...current, title, updatedAt: now };
    append({ type: "thread.renamed", threadId, payload: { thread, titleSource: source } });
    return { thread, changed: true };
  });
}

/**
 * Archives or unarchives a thread. Archiving is refused while a Run of the thread is
 * queued or running.
 *
 * @param store the state store
 * @param threadId the thread
 * @param archived the wanted state
 * @returns the thread and whether it changed
 * @throws {StoreError} `thread_not_found`, `thread_busy`
 */
export function setThreadArchived(
  store: StateStore,
  threadId: string,
  archived: boolean,
): Committed<ThreadChange> {
  return store.write(({ db, now, append }) => {
    const current = readThread(db, threadId);
    if ((current.archivedAt !== null) === archived) return { thread: current, changed: false };
    if (archived && hasActiveRun(db, threadId)) {
      throw new StoreError(
        "thread_busy",
        `Thread ${threadId} has a queued or running run; cancel it before archiving`,
      );
    }
    const thread = { ...current, archivedAt: archived ? now : null, updatedAt: now };
    append({
      type: archived ? "thread.archived" : "thread.unarchived",
      threadId,
      payload: { thread },
    });
    return { thread, changed: true };
  });
}

/**
 * Whether a thread has a queued, running or waiting Run (waiting for an approval is not
 * settled: the thread stays busy).
 *
 * @param db the database
 * @param threadId the thread
 * @returns true while a Run is active
 */
export function hasActiveRun(db: StateDatabase, threadId: string): boolean {
  return statement(
    db.connection,
    `SELECT 1 FROM runs r JOIN turns t ON t.id = r.turn_id
     WHERE t.thread_id = ? AND r.status IN ('queued', 'running', 'waiting') LIMIT 1`,
  ).get(threadId) !== undefined;
}

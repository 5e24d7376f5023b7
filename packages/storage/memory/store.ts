/**
 * The memory store: create, correct and forget as revisions with idempotency receipts,
 * and list / get over memory.db. All calls are synchronous (`node:sqlite`); each
 * mutation is one `BEGIN IMMEDIATE` transaction that also keeps the FTS row current.
 *
 * @example
 * ```ts
 * const store = MemoryStore.open(`${home}/memory.db`);
 * const { memoryId } = store.create({
 *   kind: "preference",
 *   scope: { type: "global", key: null },
 *   content: "回复尽量简洁",
 *   clientRequestId: "req-4",
 * });
 * store.forget({ memoryId, expectedRevision: 1, clientRequestId: "req-5" });
 * store.close();
 * ```
 *
 * @module
 */
import {
  type Memory,
  MEMORY_CONTENT_MAX_CHARS,
  type MemoryKind,
  type MemoryScope,
  newId,
  type ResultOf,
} from "@daedalus/protocol";
import { MemoryError } from "./errors.ts";
import { type MemoryDatabase, openMemoryDatabase } from "./database.ts";
import {
  deleteFtsRow,
  insertFtsRow,
  MEMORY_ROW_COLUMNS,
  MEMORY_ROW_FROM,
  type MemoryRow,
  memoryRow,
  type MemorySourceInput,
  type ResolvedItem,
  type ResolveItem,
  sha256,
} from "./_records.ts";
import { type ListMemoriesInput, listMemoryPage, type MemoryPage } from "./list.ts";
import { MEMORY_SCOPE_KEY_MAX_CHARS } from "./limits.ts";
import { numeric, text } from "./_sqlite.ts";
import { statement } from "../_statements.ts";

export type { MemorySourceInput, ResolvedItem, ResolveItem } from "./_records.ts";

/** What create, correct and forget return (the wire's MutationResult). */
export type MemoryMutationResult = ResultOf<"memory.create">;

/** Per-call capabilities the runtime supplies. */
export interface MemoryCallContext {
  /** Looks up cited Items in state.db; without it any source is unavailable. */
  resolveItem?: ResolveItem;
}

/** Input of {@linkcode MemoryStore.create}. */
export interface CreateMemoryInput {
  /** What kind of memory it is. */
  kind: MemoryKind;
  /** Where it applies. */
  scope: MemoryScope;
  /** The remembered text. */
  content: string;
  /** The caller's idempotency key: a retry with the same key returns the first result. */
  clientRequestId: string;
  /** The Item it was learned from, if any. */
  source?: MemorySourceInput;
}

/** Input of {@linkcode MemoryStore.correct}. */
export interface CorrectMemoryInput {
  /** The memory to correct. */
  memoryId: string;
  /** The revision the caller last saw; another one is a conflict. */
  expectedRevision: number;
  /** The corrected text. */
  content: string;
  /** The caller's idempotency key: a retry with the same key returns the first result. */
  clientRequestId: string;
  /** The Item the correction comes from, if any. */
  source?: MemorySourceInput;
}

/** Input of {@linkcode MemoryStore.forget}. */
export interface ForgetMemoryInput {
  /** The memory to forget. */
  memoryId: string;
  /** The revision the caller last saw; another one is a conflict. */
  expectedRevision: number;
  /** The caller's idempotency key: a retry with the same key returns the first result. */
  clientRequestId: string;
  /** The Item that asked to forget it, if any. */
  source?: MemorySourceInput;
}

/** Options of {@linkcode MemoryStore}. */
export interface MemoryStoreOptions {
  /** The clock; tests pin it. Default `() => new Date()`. */
  now?: () => Date;
}

type Method = "memory.create" | "memory.correct" | "memory.forget";

interface SourceColumns {
  kind: "user_explicit" | "session_item" | "auto_extracted";
  threadId: string | null;
  turnId: string | null;
  itemId: string | null;
  digest: string | null;
}

const USER_EXPLICIT: SourceColumns = {
  kind: "user_explicit",
  threadId: null,
  turnId: null,
  itemId: null,
  digest: null,
};

/** Long-term memories in memory.db. */
export class MemoryStore {
  /** The open database (recall reads through it). */
  readonly database: MemoryDatabase;
  readonly #now: () => Date;

  /**
   * Wraps an open memory.db.
   *
   * @param database from {@linkcode openMemoryDatabase}
   * @param options the clock
   */
  constructor(database: MemoryDatabase, options: MemoryStoreOptions = {}) {
    this.database = database;
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * Opens memory.db (creating it when missing) and wraps it.
   *
   * @param path the file, or `:memory:`
   * @param options the clock
   * @returns the store
   * @throws {MemorySchemaIncompatibleError} when the file has another schema
   */
  static open(path: string, options: MemoryStoreOptions = {}): MemoryStore {
    return new MemoryStore(openMemoryDatabase(path), options);
  }

  /** Closes the database. */
  close(): void {
    this.database.close();
  }

  /**
   * Saves a new memory at revision 1. Replaying a `clientRequestId` returns the first
   * result; the same id with other kind, scope or source is refused.
   *
   * @param input kind, scope, content, clientRequestId and an optional Item source
   * @param context `resolveItem` for the source
   * @returns `{ memoryId, resultingRevision: 1, created: true }`
   * @throws {MemoryError} `invalid_params`, `memory_idempotency_conflict`,
   *   `memory_source_unavailable`
   */
  create(input: CreateMemoryInput, context: MemoryCallContext = {}): MemoryMutationResult {
    const content = checkContent(input.content);
    checkScope(input.scope);
    const fingerprint = sha256(JSON.stringify([
      input.kind,
      input.scope.type,
      input.scope.key,
      input.source?.itemId ?? null,
      input.source?.sourceKind ?? null,
    ]));
    const connection = this.database.connection;
    return this.database.transaction(() => {
      const replay = this.#replay(input.clientRequestId, "memory.create", fingerprint);
      if (replay) return replay;
      const source = resolveSource(input.source, context);
      const memoryId = newId("memory");
      const at = this.#timestamp();
      statement(
        connection,
        `INSERT INTO memory_records (id, kind, scope_type, scope_key, current_revision, state,
           created_at, updated_at, forgotten_at) VALUES (?, ?, ?, ?, 1, 'active', ?, ?, NULL)`,
      ).run(memoryId, input.kind, input.scope.type, input.scope.key, at, at);
      this.#insertRevision(memoryId, 1, "create", content, source, at);
      this.#receipt(input.clientRequestId, "memory.create", fingerprint, memoryId, 1, at);
      insertFtsRow(connection, memoryId, content);
      return { memoryId, resultingRevision: 1, created: true };
    });
  }

  /**
   * Replaces a memory's content as a new revision, if it is still at `expectedRevision`.
   *
   * @param input memoryId, expectedRevision, content, clientRequestId, optional source
   * @param context `resolveItem` for the source
   * @returns `{ memoryId, resultingRevision, created: false }`
   * @throws {MemoryError} `invalid_params`, `memory_not_found`, `memory_forgotten`,
   *   `memory_revision_conflict`, `memory_idempotency_conflict`, `memory_source_unavailable`
   */
  correct(input: CorrectMemoryInput, context: MemoryCallContext = {}): MemoryMutationResult {
    const content = checkContent(input.content);
    const connection = this.database.connection;
    return this.#revise("memory.correct", input, context, (revision, source, at) => {
      this.#insertRevision(input.memoryId, revision, "correct", content, source, at);
      statement(
        connection,
        "UPDATE memory_records SET current_revision = ?, updated_at = ? WHERE id = ?",
      ).run(revision, at, input.memoryId);
      deleteFtsRow(connection, input.memoryId);
      insertFtsRow(connection, input.memoryId, content);
    });
  }

  /**
   * Forgets a memory: erases the content of every earlier revision, appends a tombstone
   * revision without content and drops the memory from the recall index.
   *
   * @param input memoryId, expectedRevision, clientRequestId, optional source
   * @param context `resolveItem` for the source
   * @returns `{ memoryId, resultingRevision, created: false }`
   * @throws {MemoryError} `memory_not_found`, `memory_forgotten`,
   *   `memory_revision_conflict`, `memory_idempotency_conflict`, `memory_source_unavailable`
   */
  forget(input: ForgetMemoryInput, context: MemoryCallContext = {}): MemoryMutationResult {
    const connection = this.database.connection;
    return this.#revise("memory.forget", input, context, (revision, resolved, at) => {
      statement(
        connection,
        `UPDATE memory_revisions SET content = NULL, content_digest = NULL,
           content_redacted_at = ?, source_item_digest = NULL
         WHERE memory_id = ? AND operation IN ('create', 'correct')
           AND content_redacted_at IS NULL`,
      ).run(at, input.memoryId);
      // A tombstone keeps where the forget came from, not a digest of gone content.
      const source = { ...resolved, digest: null };
      this.#insertRevision(input.memoryId, revision, "forget", null, source, at);
      statement(
        connection,
        `UPDATE memory_records SET current_revision = ?, state = 'forgotten',
           updated_at = ?, forgotten_at = ? WHERE id = ?`,
      ).run(revision, at, at, input.memoryId);
      deleteFtsRow(connection, input.memoryId);
    });
  }

  /**
   * The shared shape of a correct or forget: idempotent on clientRequestId (a replay
   * answers the first result), checked against the expected revision, one transaction
   * with its receipt.
   */
  #revise(
    method: "memory.correct" | "memory.forget",
    input: ForgetMemoryInput,
    context: MemoryCallContext,
    write: (revision: number, source: SourceColumns, at: string) => void,
  ): MemoryMutationResult {
    const fingerprint = sha256(JSON.stringify([
      input.memoryId,
      input.expectedRevision,
      input.source?.itemId ?? null,
      input.source?.sourceKind ?? null,
    ]));
    return this.database.transaction(() => {
      const replay = this.#replay(input.clientRequestId, method, fingerprint);
      if (replay) return replay;
      const revision = this.#nextRevision(input.memoryId, input.expectedRevision);
      const source = resolveSource(input.source, context);
      const at = this.#timestamp();
      write(revision, source, at);
      this.#receipt(input.clientRequestId, method, fingerprint, input.memoryId, revision, at);
      return { memoryId: input.memoryId, resultingRevision: revision, created: false };
    });
  }

  /**
   * Pages memories by `updated_at DESC, id ASC`.
   *
   * @param input cursor, limit (default 50, at most 100), state, scope and kind filters
   * @returns the page, its next cursor and whether more follow
   * @throws {MemoryError} `invalid_cursor` for a cursor of another query
   */
  list(input: ListMemoriesInput = {}): MemoryPage {
    return this.database.readTransaction(() => listMemoryPage(this.database.connection, input));
  }

  /**
   * Reads one memory with its provenance.
   *
   * @param memoryId the memory
   * @param context `resolveItem`, to say whether the cited Item still exists
   * @returns the memory; `content` is null once forgotten
   * @throws {MemoryError} `memory_not_found`
   */
  get(memoryId: string, context: MemoryCallContext = {}): Memory {
    const row = this.#read(memoryId);
    if (row === undefined) throw notFound(memoryId);
    return toMemory(row, context);
  }

  #read(memoryId: string): MemoryRow | undefined {
    const row = statement(
      this.database.connection,
      `SELECT ${MEMORY_ROW_COLUMNS} FROM ${MEMORY_ROW_FROM} WHERE r.id = ?`,
    ).get(memoryId);
    return row === undefined ? undefined : memoryRow(row);
  }

  #nextRevision(memoryId: string, expectedRevision: number): number {
    const row = statement(
      this.database.connection,
      "SELECT state, current_revision FROM memory_records WHERE id = ?",
    ).get(memoryId);
    if (row === undefined) throw notFound(memoryId);
    if (text(row, "state") === "forgotten") {
      throw new MemoryError("memory_forgotten", `Memory ${memoryId} has been forgotten`);
    }
    const current = numeric(row, "current_revision");
    if (current !== expectedRevision) {
      throw new MemoryError(
        "memory_revision_conflict",
        `Memory ${memoryId} is at revision ${current}, not ${expectedRevision}`,
        "expectedRevision",
      );
    }
    return current + 1;
  }

  #replay(clientRequestId: string, method: Method, fingerprint: string) {
    const row = statement(
      this.database.connection,
      `SELECT method, non_content_fingerprint, memory_id, resulting_revision
       FROM memory_operations WHERE client_request_id = ?`,
    ).get(clientRequestId);
    if (row === undefined) return undefined;
    if (text(row, "method") !== method || text(row, "non_content_fingerprint") !== fingerprint) {
      throw new MemoryError(
        "memory_idempotency_conflict",
        `clientRequestId ${clientRequestId} was already used for a different request`,
        "clientRequestId",
      );
    }
    return {
      memoryId: text(row, "memory_id"),
      resultingRevision: numeric(row, "resulting_revision"),
      created: method === "memory.create",
    };
  }

  #insertRevision(
    memoryId: string,
    revision: number,
    operation: "create" | "correct" | "forget",
    content: string | null,
    source: SourceColumns,
    at: string,
  ): void {
    statement(
      this.database.connection,
      `INSERT INTO memory_revisions (memory_id, revision, operation, content, content_digest,
         content_redacted_at, source_kind, source_thread_id, source_turn_id, source_item_id,
         source_item_digest, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)`,
    ).run(
      memoryId,
      revision,
      operation,
      content,
      content === null ? null : sha256(content),
      source.kind,
      source.threadId,
      source.turnId,
      source.itemId,
      source.digest,
      at,
    );
  }

  #receipt(
    clientRequestId: string,
    method: Method,
    fingerprint: string,
    memoryId: string,
    revision: number,
    at: string,
  ): void {
    statement(
      this.database.connection,
      `INSERT INTO memory_operations (client_request_id, method, non_content_fingerprint,
         memory_id, resulting_revision, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(clientRequestId, method, fingerprint, memoryId, revision, at);
  }

  #timestamp(): string {
    return this.#now().toISOString();
  }
}

function checkContent(content: string): string {
  const trimmed = content.trim();
  if (trimmed.length === 0 || trimmed.length > MEMORY_CONTENT_MAX_CHARS) {
    throw new MemoryError(
      "invalid_params",
      `Memory content must be 1 to ${MEMORY_CONTENT_MAX_CHARS} characters`,
      "content",
    );
  }
  return trimmed;
}

function checkScope(scope: MemoryScope): void {
  if (scope.type === "global" ? scope.key === null : validKey(scope.key)) return;
  throw new MemoryError("invalid_params", "Memory scope key does not match its type", "scope");
}

function validKey(key: unknown): boolean {
  return typeof key === "string" && key.length >= 1 && key.length <= MEMORY_SCOPE_KEY_MAX_CHARS;
}

function resolveSource(
  source: MemorySourceInput | undefined,
  context: MemoryCallContext,
): SourceColumns {
  if (source === undefined) return USER_EXPLICIT;
  const item: ResolvedItem | null = context.resolveItem?.(source.itemId) ?? null;
  if (item === null || item.itemId !== source.itemId) {
    throw new MemoryError(
      "memory_source_unavailable",
      `Item ${source.itemId} is not available as a memory source`,
      "source.itemId",
    );
  }
  return {
    kind: source.sourceKind ?? "session_item",
    threadId: item.threadId,
    turnId: item.turnId,
    itemId: item.itemId,
    digest: item.contentDigest,
  };
}

function toMemory(row: MemoryRow, context: MemoryCallContext): Memory {
  const cited = row.sourceItemId;
  const status = cited === null
    ? "none"
    : context.resolveItem?.(cited) != null
    ? "available"
    : "unavailable";
  return {
    id: row.id,
    kind: row.kind,
    scope: row.scope,
    revision: row.revision,
    state: row.state,
    content: row.state === "forgotten" ? null : row.content,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    forgottenAt: row.forgottenAt,
    provenance: {
      sourceKind: row.sourceKind,
      threadId: row.sourceThreadId,
      turnId: row.sourceTurnId,
      itemId: row.sourceItemId,
      status,
    },
  };
}

function notFound(memoryId: string): MemoryError {
  return new MemoryError("memory_not_found", `Memory ${memoryId} does not exist`, "memoryId");
}

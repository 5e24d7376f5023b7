/**
 * The Memory settings section's state: a filtered, cursor-paged `memory.list` (the pure
 * merging is `memory_list.ts`), the whole records from `memory.get` (content and
 * provenance), and create / correct / forget. A change made here is folded into the
 * loaded pages at once instead of reloading them. Every function takes the RPC call as a
 * parameter so tests run without a server.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";
import type { Memory, MemoryKind } from "@daedalus/client";
import { callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";
import {
  emptyMemoryList,
  listParams,
  type MemoryFilter,
  type MemoryList,
  mergePage,
  scopeOf,
  summaryOf,
  upsertMemory,
} from "./memory_list.ts";

/** The section's list. */
export const memoryList: Signal<MemoryList> = signal<MemoryList>(emptyMemoryList());
/** Whole records read with `memory.get`, by id. */
export const memoryDetails: Signal<ReadonlyMap<string, Memory>> = signal<
  ReadonlyMap<string, Memory>
>(new Map());

let listGeneration = 0;

/**
 * Loads the first page for a filter; answers for an older filter or load are dropped.
 *
 * @param filter the filter (the current one by default)
 * @param call the RPC call, the app's connection by default
 */
export async function loadMemories(
  filter: MemoryFilter = memoryList.value.filter,
  call: RpcCall = liveCall,
): Promise<void> {
  const generation = ++listGeneration;
  memoryList.value = { ...memoryList.value, filter, status: "loading" };
  try {
    const page = await call("memory.list", listParams(filter, null));
    if (generation !== listGeneration) return;
    memoryList.value = mergePage(memoryList.value, page, "replace");
  } catch (error) {
    if (generation !== listGeneration) return;
    memoryList.value = { ...emptyMemoryList(filter), status: "failed", error: callFailure(error) };
  }
}

/**
 * Appends the next page ("Load more"); does nothing while another load runs or when
 * there is no next page.
 *
 * @param call the RPC call, the app's connection by default
 */
export async function loadMoreMemories(call: RpcCall = liveCall): Promise<void> {
  const list = memoryList.value;
  if (!list.hasMore || !list.nextCursor || list.status !== "ready") return;
  const generation = ++listGeneration;
  memoryList.value = { ...list, status: "loadingMore" };
  try {
    const page = await call("memory.list", listParams(list.filter, list.nextCursor));
    if (generation !== listGeneration) return;
    memoryList.value = mergePage(memoryList.value, page, "append");
  } catch (error) {
    if (generation !== listGeneration) return;
    // The loaded rows stay; the button comes back so the user can try again.
    memoryList.value = { ...memoryList.value, status: "ready", error: callFailure(error) };
  }
}

/**
 * Reads a whole memory (content, provenance) and folds it into the list.
 *
 * @param memoryId the memory
 * @param call the RPC call, the app's connection by default
 * @returns the record
 * @throws whatever `memory.get` throws
 */
export async function loadMemoryDetail(
  memoryId: string,
  call: RpcCall = liveCall,
): Promise<Memory> {
  const { memory } = await call("memory.get", { memoryId });
  memoryDetails.value = new Map(memoryDetails.value).set(memory.id, memory);
  memoryList.value = upsertMemory(memoryList.value, summaryOf(memory));
  return memory;
}

/** What {@linkcode createMemory} saves. */
export interface NewMemory {
  /** What it records. */
  kind: MemoryKind;
  /** `global` or a workspace key. */
  scope: string;
  /** Its text. */
  content: string;
  /** The conversation Item it came from (`item_…`), or null for none. */
  sourceItemId: string | null;
  /**
   * Chosen once per form, so retrying after a lost answer cannot save it twice
   * (`memory.create` is idempotent on it).
   */
  clientRequestId: string;
}

/**
 * Saves a new memory and shows it.
 *
 * @param input what to save
 * @param call the RPC call, the app's connection by default
 * @returns the new record
 * @throws whatever `memory.create` or `memory.get` throws
 */
export async function createMemory(input: NewMemory, call: RpcCall = liveCall): Promise<Memory> {
  const { memoryId } = await call("memory.create", {
    kind: input.kind,
    scope: scopeOf(input.scope),
    content: input.content,
    clientRequestId: input.clientRequestId,
    ...(input.sourceItemId ? { source: { type: "session_item", itemId: input.sourceItemId } } : {}),
  });
  return await loadMemoryDetail(memoryId, call);
}

/**
 * Replaces a memory's content as a new revision. On a revision conflict (changed
 * elsewhere) the record is re-read so the editor shows what is there now.
 *
 * @param memory the record being corrected (its revision is the expected one)
 * @param content the new content
 * @param clientRequestId chosen once per edit, for idempotent retries
 * @param call the RPC call, the app's connection by default
 * @returns the corrected record
 * @throws whatever `memory.correct` or `memory.get` throws
 */
export async function correctMemory(
  memory: Memory,
  content: string,
  clientRequestId: string,
  call: RpcCall = liveCall,
): Promise<Memory> {
  try {
    await call("memory.correct", {
      memoryId: memory.id,
      expectedRevision: memory.revision,
      content,
      clientRequestId,
    });
  } catch (error) {
    if (callFailure(error).code === "memory_revision_conflict") {
      await loadMemoryDetail(memory.id, call).catch(() => undefined);
    }
    throw error;
  }
  return await loadMemoryDetail(memory.id, call);
}

/**
 * Forgets a memory: the runtime erases its content with a tombstone revision.
 *
 * @param memory the record (its revision is the expected one)
 * @param clientRequestId chosen once per confirmation, for idempotent retries
 * @param call the RPC call, the app's connection by default
 * @returns the tombstone record
 * @throws whatever `memory.forget` or `memory.get` throws
 */
export async function forgetMemory(
  memory: Pick<Memory, "id" | "revision">,
  clientRequestId: string,
  call: RpcCall = liveCall,
): Promise<Memory> {
  await call("memory.forget", {
    memoryId: memory.id,
    expectedRevision: memory.revision,
    clientRequestId,
  });
  return await loadMemoryDetail(memory.id, call);
}

/** An Item id as the protocol writes it. */
export const ITEM_ID_PATTERN = /^item_[0-9a-f]{32}$/;

/**
 * A fresh `clientRequestId`. `crypto.getRandomValues` works outside secure contexts
 * too (a runtime reached over plain http on the LAN), unlike `crypto.randomUUID`.
 *
 * @returns 32 hex characters
 */
export function newClientRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

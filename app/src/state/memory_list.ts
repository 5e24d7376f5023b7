/**
 * The pure part of the Memory section's list: filters and their `memory.list` params,
 * merging pages (newest first: `updatedAt` descending, then id) and folding one changed
 * memory into the loaded pages.
 *
 * @module
 */
import type {
  Memory,
  MemoryKind,
  MemoryScope,
  MemorySummary,
  ParamsOf,
  ResultOf,
} from "@daedalus/client";
import type { CallFailure } from "./call_failure.ts";

/** Memories per `memory.list` page (the protocol's default page size). */
export const MEMORY_PAGE_SIZE = 50;
/**
 * Longest memory text (the protocol's `MEMORY_CONTENT_MAX_CHARS`; the client package
 * exports wire types only, and the runtime refuses longer text anyway).
 */
export const MEMORY_CONTENT_MAX_CHARS = 2048;
/** The list preview's length in the protocol (`MEMORY_PREVIEW_MAX_CHARS`). */
const PREVIEW_MAX_CHARS = 160;

/** The kinds a memory can have, in the order the filter and the form offer them. */
export const MEMORY_KINDS: readonly MemoryKind[] = [
  "fact",
  "preference",
  "relationship",
  "project",
];

/**
 * What the list shows. `scope` is `all`, `global`, or a workspace scope's key (the
 * runtime derives those keys, so the filter offers the ones it has seen).
 */
export interface MemoryFilter {
  /** Which states to list. */
  state: "active" | "forgotten" | "all";
  /** One kind, or all. */
  kind: MemoryKind | "all";
  /** `all`, `global` or a workspace key. */
  scope: string;
}

/** Active memories of every kind and scope. */
export const DEFAULT_MEMORY_FILTER: MemoryFilter = { state: "active", kind: "all", scope: "all" };

/** The loaded pages. */
export interface MemoryList {
  /** The filter the pages were loaded with. */
  filter: MemoryFilter;
  /** The rows, newest first. */
  items: MemorySummary[];
  /** Where "Load more" continues, or null. */
  nextCursor: string | null;
  /** Whether another page exists. */
  hasMore: boolean;
  /** `loading` replaces the pages; `loadingMore` appends one. */
  status: "idle" | "loading" | "loadingMore" | "ready" | "failed";
  /** The last failed load, cleared by the next success. */
  error: CallFailure | null;
}

/**
 * An empty list for a filter.
 *
 * @param filter the filter
 * @returns the list before its first page
 */
export function emptyMemoryList(filter: MemoryFilter = DEFAULT_MEMORY_FILTER): MemoryList {
  return { filter, items: [], nextCursor: null, hasMore: false, status: "idle", error: null };
}

/**
 * The scope a filter value stands for.
 *
 * @param scope `global` or a workspace key (not `all`)
 * @returns the wire scope
 */
export function scopeOf(scope: string): MemoryScope {
  return scope === "global" ? { type: "global", key: null } : { type: "workspace", key: scope };
}

/**
 * The filter's `memory.list` parameters; `all` sends nothing for that field.
 *
 * @param filter the filter
 * @param cursor the page to continue from, or null for the first
 * @returns the params
 */
export function listParams(filter: MemoryFilter, cursor: string | null): ParamsOf<"memory.list"> {
  return {
    limit: MEMORY_PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
    ...(filter.state === "all" ? {} : { state: filter.state }),
    ...(filter.kind === "all" ? {} : { kind: filter.kind }),
    ...(filter.scope === "all" ? {} : { scope: scopeOf(filter.scope) }),
  };
}

/**
 * Whether a memory belongs in a filtered list.
 *
 * @param memory the memory
 * @param filter the filter
 */
export function matchesFilter(memory: MemorySummary, filter: MemoryFilter): boolean {
  if (filter.state !== "all" && memory.state !== filter.state) return false;
  if (filter.kind !== "all" && memory.kind !== filter.kind) return false;
  if (filter.scope === "all") return true;
  return filter.scope === "global"
    ? memory.scope.type === "global"
    : memory.scope.type === "workspace" && memory.scope.key === filter.scope;
}

/** The list's order: `updatedAt` descending, then id ascending (as `memory.list`). */
function comesBefore(a: MemorySummary, b: MemorySummary): boolean {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt;
  return a.id < b.id;
}

/**
 * Adds a `memory.list` page. A memory already shown is kept where it is with the newer
 * of the two copies, so pages never show one twice.
 *
 * @param list the loaded pages (ignored for `replace`)
 * @param page the new page
 * @param mode `replace` for a first page, `append` for "Load more"
 * @returns the list, ready
 */
export function mergePage(
  list: MemoryList,
  page: ResultOf<"memory.list">,
  mode: "replace" | "append",
): MemoryList {
  const items = mode === "replace" ? [] : [...list.items];
  const index = new Map(items.map((memory, position) => [memory.id, position]));
  for (const memory of page.memories) {
    const position = index.get(memory.id);
    if (position === undefined) {
      index.set(memory.id, items.length);
      items.push(memory);
    } else if (memory.revision > items[position].revision) {
      items[position] = memory;
    }
  }
  return {
    ...list,
    items,
    nextCursor: page.nextCursor,
    hasMore: page.hasMore,
    status: "ready",
    error: null,
  };
}

/**
 * Folds one memory's latest state into the loaded pages: it leaves them when it no
 * longer matches the filter, and otherwise takes its place in the order — unless that
 * place is past the last loaded row while more pages exist (a later page brings it).
 *
 * @param list the loaded pages
 * @param memory the memory as it is now
 * @returns the list
 */
export function upsertMemory(list: MemoryList, memory: MemorySummary): MemoryList {
  const others = list.items.filter((listed) => listed.id !== memory.id);
  if (!matchesFilter(memory, list.filter)) return { ...list, items: others };
  const at = others.findIndex((listed) => comesBefore(memory, listed));
  if (at === -1 && list.hasMore) return { ...list, items: others };
  const items = at === -1
    ? [...others, memory]
    : [...others.slice(0, at), memory, ...others.slice(at)];
  return { ...list, items };
}

/**
 * The list row of a whole memory, its preview made as the runtime makes it (whitespace
 * collapsed, cut to 160 characters with an ellipsis, never inside a surrogate pair).
 *
 * @param memory a `memory.get` record
 * @returns its summary
 */
export function summaryOf(memory: Memory): MemorySummary {
  const { id, kind, scope, revision, state, createdAt, updatedAt, forgottenAt } = memory;
  return {
    id,
    kind,
    scope,
    revision,
    state,
    preview: previewOf(memory.content ?? ""),
    createdAt,
    updatedAt,
    forgottenAt,
  };
}

function previewOf(content: string): string {
  const flat = content.replace(/\s+/g, " ").trim();
  if (flat.length <= PREVIEW_MAX_CHARS) return flat;
  let cut = "";
  for (const char of flat) {
    if (cut.length + char.length > PREVIEW_MAX_CHARS - 1) break;
    cut += char;
  }
  return `${cut}…`;
}

/**
 * The workspace keys the scope filter can offer: those of the loaded memories and the
 * one currently selected, sorted.
 *
 * @param list the loaded pages
 * @returns the keys
 */
export function knownWorkspaceKeys(list: MemoryList): string[] {
  const keys = new Set<string>();
  for (const memory of list.items) {
    if (memory.scope.type === "workspace") keys.add(memory.scope.key);
  }
  if (list.filter.scope !== "all" && list.filter.scope !== "global") keys.add(list.filter.scope);
  return [...keys].sort();
}

/**
 * The `memory.*` RPC methods over the memory store. Refusals are JSON-RPC -32020
 * (`memoryOperationFailed`) with the store's memory reason code in `data.reasonCode`;
 * a bad cursor or content is -32602. Results are validated against the protocol before
 * they leave.
 *
 * @example
 * ```ts
 * const handlers = createMemoryHandlers({ store: memoryStore, resolveItem });
 * const { result } = await handlers["memory.create"](params);
 * ```
 *
 * @module
 */
import {
  type ErrorReasonCode,
  MEMORY_REASON_CODES,
  parseResult,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  type ValidParamsOf,
} from "@daedalus/protocol";
import type { Handled } from "./services.ts";

/** An Item of state.db that a memory may cite. */
export interface MemorySourceItem {
  /** Its thread. */
  threadId: string;
  /** Its turn. */
  turnId: string;
  /** The Item. */
  itemId: string;
  /** A digest of its content. */
  contentDigest: string;
}

/** Looks an Item up in state.db; null when it does not exist. */
export type ResolveMemorySourceItem = (itemId: string) => MemorySourceItem | null;

/**
 * What the handlers need of the memory store (`MemoryStore` of `@daedalus/storage`
 * satisfies it); its refusals carry a reason code in `code`.
 */
export interface MemoryHandlerStore {
  /** Saves a memory. */
  create(
    input: ValidParamsOf<"memory.create">,
    context: { resolveItem: ResolveMemorySourceItem },
  ): ResultOf<"memory.create">;
  /** Appends a corrected revision. */
  correct(
    input: ValidParamsOf<"memory.correct">,
    context: { resolveItem: ResolveMemorySourceItem },
  ): ResultOf<"memory.correct">;
  /** Appends a tombstone revision. */
  forget(
    input: ValidParamsOf<"memory.forget">,
    context: { resolveItem: ResolveMemorySourceItem },
  ): ResultOf<"memory.forget">;
  /** Reads one page. */
  list(input: ValidParamsOf<"memory.list">): ResultOf<"memory.list">;
  /** Reads one memory. */
  get(
    memoryId: string,
    context: { resolveItem: ResolveMemorySourceItem },
  ): ResultOf<"memory.get">["memory"];
}

/** Options of {@linkcode createMemoryHandlers}. */
export interface MemoryHandlerOptions {
  /** The memory store. */
  store: MemoryHandlerStore;
  /** Resolves cited Items from state.db. */
  resolveItem: ResolveMemorySourceItem;
  /**
   * Refuses text carrying a configured credential (the same -32602 `protected_value`
   * error turn.start gives), so memory.db never holds one.
   */
  protectedValues?: { assertSafe(value: unknown, field: string): void };
}

/** The methods served here. */
export type MemoryMethod =
  | "memory.create"
  | "memory.correct"
  | "memory.forget"
  | "memory.list"
  | "memory.get";

/** One handler per `memory.*` method. */
export type MemoryHandlers = {
  [M in MemoryMethod]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

const MEMORY_REASONS = new Set<string>(MEMORY_REASON_CODES);
const PARAMS_REASONS = new Set<string>(["invalid_params", "invalid_cursor"]);

/**
 * Builds the `memory.*` handlers.
 *
 * @param options the store and the Item resolver
 * @returns a handler per method
 * @throws {RpcError} from each handler: -32020 with a memory reason code, or -32602
 *   `invalid_params` / `invalid_cursor` / `protected_value`; anything else is rethrown
 *   unchanged
 */
export function createMemoryHandlers(options: MemoryHandlerOptions): MemoryHandlers {
  const { store, resolveItem, protectedValues } = options;
  const context = { resolveItem };
  // Every field is checked from the root, so data.field names it as turn.start does.
  const refuseCredentials = (params: object) => protectedValues?.assertSafe(params, "");
  const run = <M extends MemoryMethod>(method: M, work: () => unknown) => {
    try {
      return Promise.resolve({ result: parseResult(method, work()) });
    } catch (error) {
      return Promise.reject(asRpcError(error));
    }
  };
  return {
    "memory.create": (params) =>
      run("memory.create", () => {
        refuseCredentials(params);
        return store.create(params, context);
      }),
    "memory.correct": (params) =>
      run("memory.correct", () => {
        refuseCredentials(params);
        return store.correct(params, context);
      }),
    "memory.forget": (params) =>
      run("memory.forget", () => {
        refuseCredentials(params);
        return store.forget(params, context);
      }),
    "memory.list": (params) => run("memory.list", () => store.list(params)),
    "memory.get": ({ memoryId }) =>
      run("memory.get", () => ({ memory: store.get(memoryId, context) })),
  };
}

function asRpcError(error: unknown): unknown {
  if (error instanceof RpcError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return error;
  const field = (error as { field?: unknown }).field;
  const extra = typeof field === "string" ? { field } : {};
  if (MEMORY_REASONS.has(code)) {
    return new RpcError(
      RPC_ERROR_CODES.memoryOperationFailed,
      code as ErrorReasonCode,
      error.message,
      extra,
      { cause: error },
    );
  }
  if (PARAMS_REASONS.has(code)) {
    return new RpcError(
      RPC_ERROR_CODES.invalidParams,
      code as ErrorReasonCode,
      error.message,
      extra,
      { cause: error },
    );
  }
  return error;
}

/**
 * JSON-RPC error codes and the error class every layer throws to produce one.
 *
 * @module
 */
import type { ErrorReasonCode, RpcErrorData, RpcErrorObject } from "./types.gen.ts";

/** JSON-RPC 2.0 error codes, the standard ones and the runtime's own. */
export const RPC_ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  notInitialized: -32000,
  unsupportedProtocolVersion: -32001,
  alreadyInitialized: -32002,
  providerFailure: -32010,
  memoryOperationFailed: -32020,
} as const;

/** One of the values of {@linkcode RPC_ERROR_CODES}. */
export type RpcErrorCode = typeof RPC_ERROR_CODES[keyof typeof RPC_ERROR_CODES];

/**
 * The one error class that becomes a JSON-RPC error response. Services throw it
 * with a stable reason code; the server serializes it as is.
 *
 * @example
 * ```ts
 * throw new RpcError(RPC_ERROR_CODES.invalidParams, "thread_not_found", "Thread not found");
 * ```
 */
export class RpcError extends Error {
  /** The JSON-RPC error code. */
  readonly code: RpcErrorCode;
  /** The structured `data`, always with `reasonCode`. */
  readonly data: RpcErrorData;

  /**
   * Makes the error the server will send.
   *
   * @param code JSON-RPC error code
   * @param reasonCode stable reason
   * @param message sentence-case description, no trailing period
   * @param extra more `data` fields, e.g. `field`
   * @param options the original error as `cause`
   */
  constructor(
    code: RpcErrorCode,
    reasonCode: ErrorReasonCode,
    message: string,
    extra: Omit<RpcErrorData, "reasonCode"> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "RpcError";
    this.code = code;
    this.data = { ...extra, reasonCode };
  }

  /** The reason code carried in `data`. */
  get reasonCode(): ErrorReasonCode {
    return this.data.reasonCode;
  }

  /**
   * The wire form of this error.
   *
   * @returns `{code, message, data}`
   */
  toJSON(): RpcErrorObject {
    return { code: this.code, message: this.message, data: this.data };
  }
}

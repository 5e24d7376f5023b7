/**
 * Maps storage refusals to the JSON-RPC errors clients see.
 *
 * @module
 */
import {
  ERROR_REASON_CODES,
  type ErrorReasonCode,
  RPC_ERROR_CODES,
  RpcError,
} from "@daedalus/protocol";

const KNOWN = new Set<string>(ERROR_REASON_CODES);

/**
 * Turns a store or read error with a protocol reason code into an RpcError
 * (-32602 with that reason); anything else is rethrown unchanged.
 *
 * @param error what a service call threw
 * @returns never
 * @throws {RpcError} for refusals the client can act on; the original error otherwise
 */
export function rethrowAsRpcError(error: unknown): never {
  if (error instanceof RpcError) throw error;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string" && KNOWN.has(code) && error instanceof Error) {
    const field = (error as { field?: unknown }).field;
    throw new RpcError(
      RPC_ERROR_CODES.invalidParams,
      code as ErrorReasonCode,
      error.message,
      typeof field === "string" ? { field } : {},
      { cause: error },
    );
  }
  throw error;
}

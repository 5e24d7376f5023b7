/**
 * What a failed RPC call tells the user: the server's stable reason code when it sent
 * one (the UI explains it in the current locale) and the message.
 *
 * @module
 */

/** A failed call, ready to show. */
export interface CallFailure {
  /** `data.reasonCode` of a JSON-RPC error, or a client error's `code`; null if neither. */
  code: string | null;
  /** What went wrong, as the server or client worded it. */
  message: string;
}

/**
 * Reads the reason code and message out of whatever a call threw.
 *
 * @param error an `RpcError`, a `ClientError`, any other error or a thrown value
 * @returns the failure
 */
export function callFailure(error: unknown): CallFailure {
  if (!(error instanceof Error)) return { code: null, message: String(error) };
  const data = (error as { data?: { reasonCode?: unknown } }).data;
  if (typeof data?.reasonCode === "string") {
    return { code: data.reasonCode, message: error.message };
  }
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === "string" ? code : null, message: error.message };
}

/**
 * The stateless client over `POST /rpc`, for scripts: no `initialize`, no events,
 * each request authorized on its own. Same typing and validation as the WebSocket client.
 *
 * @module
 */
import {
  BATCH_MAX_REQUESTS,
  type MethodName,
  type ParamsOf,
  parseResult,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
} from "@daedalus/protocol";
import { ClientError } from "./errors.ts";
import {
  type CallParams,
  checkParams,
  classifyInbound,
  decodeMessage,
  encodeMessage,
  type RpcOutcome,
} from "./json_rpc.ts";
import { httpRpcUrl } from "./urls.ts";

/** Options of {@linkcode createHttpClient}. */
export interface HttpClientOptions {
  /** The runtime's base URL, e.g. `http://127.0.0.1:7420`; requests go to `/rpc`. */
  url: string | URL;
  /** The access token, sent as `Authorization: Bearer`; leave it out to rely on the cookie. */
  token?: string;
  /** The fetch to use; defaults to `globalThis.fetch`. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Aborts every request when aborted. */
  signal?: AbortSignal;
}

/** One call of a batch: a method and its params. */
export type BatchCall = {
  [M in MethodName]: { method: M; params?: ParamsOf<M> };
}[MethodName];

/** How one call of a batch ended. */
export type BatchOutcome<M extends MethodName> =
  | { ok: true; result: ResultOf<M> }
  | { ok: false; error: RpcError | ClientError };

/** The outcomes of a batch, in the order of its calls, each typed by its method. */
export type BatchOutcomes<T extends readonly BatchCall[]> = {
  -readonly [K in keyof T]: T[K] extends { method: infer M extends MethodName } ? BatchOutcome<M>
    : never;
};

/** A client of `POST /rpc`. */
export interface HttpClient {
  /**
   * Calls one method.
   *
   * @param method the method
   * @param params its params (optional when every field is optional)
   * @returns the validated result
   * @throws {RpcError} the server's error, -32602 for params refused before sending, or
   *   -32603 for an invalid result
   * @throws {ClientError} `http_error` for a status without a JSON-RPC body,
   *   `invalid_message` for a body that is not the response
   */
  call<M extends MethodName>(method: M, ...params: CallParams<M>): Promise<ResultOf<M>>;
  /**
   * Sends several calls in one JSON-RPC batch; each succeeds or fails on its own.
   *
   * @param calls the calls, at most 100; every call's params are checked before sending
   * @returns one outcome per call, in order
   * @throws {RpcError} -32602 when any call's params are refused (nothing is sent), -32600
   *   for more than 100 calls, or the error the server sent for the whole batch
   * @throws {ClientError} `http_error` or `invalid_message`
   */
  batch<const T extends readonly BatchCall[]>(calls: T): Promise<BatchOutcomes<T>>;
}

/**
 * Makes a client of the runtime's `POST /rpc`.
 *
 * @example
 * ```ts
 * import { createHttpClient } from "@daedalus/client";
 *
 * const rpc = createHttpClient({ url: "http://127.0.0.1:7420", token: "…" });
 * const { threads } = await rpc.call("thread.list", { limit: 10 });
 * const [a, b] = await rpc.batch([
 *   { method: "provider.list" },
 *   { method: "usage.read", params: {} },
 * ]);
 * if (a.ok) console.log(a.result.providers.length);
 * ```
 *
 * @param options where and how to call
 * @returns the client
 * @throws {TypeError} when the URL is not http(s)/ws(s)
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const url = httpRpcUrl(options.url);
  const fetchRpc = options.fetch ?? ((input, init) => fetch(input, init));
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let nextId = 1;

  async function post(body: string): Promise<unknown> {
    const response = await fetchRpc(url, {
      method: "POST",
      headers,
      body,
      signal: options.signal,
    });
    const decoded = decodeMessage(await response.text());
    if (response.ok && decoded.ok) return decoded.value;
    if (decoded.ok) throw wholeMessageError(decoded.value, response.status);
    if (response.ok) throw new ClientError("invalid_message", decoded.reason);
    throw httpError(response.status);
  }

  return {
    async call(method, ...params) {
      const checked = checkParams(method, params[0]);
      const id = nextId++;
      const value = await post(encodeMessage({ jsonrpc: "2.0", id, method, params: checked }));
      const message = classifyInbound(value);
      if (message.kind !== "response" || (message.id !== id && message.id !== null)) {
        throw new ClientError("invalid_message", `POST /rpc did not answer request ${id}`);
      }
      if (!message.outcome.ok) throw message.outcome.error;
      return parseResult(method, message.outcome.result);
    },

    async batch<const T extends readonly BatchCall[]>(calls: T): Promise<BatchOutcomes<T>> {
      if (calls.length > BATCH_MAX_REQUESTS) {
        throw new RpcError(
          RPC_ERROR_CODES.invalidRequest,
          "batch_too_large",
          `Batch has more than ${BATCH_MAX_REQUESTS} requests`,
        );
      }
      if (calls.length === 0) return [] as unknown as BatchOutcomes<T>;
      const requests = calls.map((call) => ({
        jsonrpc: "2.0",
        id: nextId++,
        method: call.method,
        params: checkParams(call.method, call.params),
      }));
      const value = await post(encodeMessage(requests));
      if (!Array.isArray(value)) throw wholeMessageError(value, 200);
      const outcomes = new Map<string | number, RpcOutcome>();
      for (const member of value) {
        const message = classifyInbound(member);
        if (message.kind === "response" && message.id !== null) {
          outcomes.set(message.id, message.outcome);
        }
      }
      return requests.map((request) =>
        settleBatchMember(request.method, outcomes.get(request.id))
      ) as unknown as BatchOutcomes<T>;
    },
  };
}

function settleBatchMember(
  method: MethodName,
  outcome: RpcOutcome | undefined,
): BatchOutcome<MethodName> {
  if (!outcome) {
    return {
      ok: false,
      error: new ClientError("invalid_message", `Batch response has no answer to ${method}`),
    };
  }
  if (!outcome.ok) return outcome;
  try {
    return { ok: true, result: parseResult(method, outcome.result) };
  } catch (error) {
    if (error instanceof RpcError) return { ok: false, error };
    throw error;
  }
}

/** A body that answers the whole message: the server's error if it is one. */
function wholeMessageError(value: unknown, status: number): Error {
  const message = classifyInbound(value);
  if (message.kind === "response" && !message.outcome.ok) return message.outcome.error;
  if (status !== 200) return httpError(status);
  return new ClientError("invalid_message", "POST /rpc answered with something else");
}

function httpError(status: number): ClientError {
  return new ClientError("http_error", `POST /rpc answered HTTP ${status}`, { status });
}

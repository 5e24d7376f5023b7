/**
 * A small Telegram Bot API client: getMe, getUpdates (long polling, `offset` acknowledges
 * every earlier update), sendMessage and sendChatAction, against `apiBaseUrl` (Telegram's
 * own by default) and through an optional HTTP proxy. Requests time out; network errors,
 * 5xx and 429 are retried with backoff (429's `parameters.retry_after` is honoured);
 * other refusals (`{ok: false, error_code, description}`) surface at once as
 * {@linkcode TelegramApiError} with a stable code. No message or error carries the token.
 *
 * @module
 */
import {
  TELEGRAM_BACKOFF_BASE_MS,
  TELEGRAM_BACKOFF_MAX_MS,
  TELEGRAM_POLL_GRACE_MS,
  TELEGRAM_REQUEST_RETRIES,
  TELEGRAM_REQUEST_TIMEOUT_MS,
  TELEGRAM_UPDATES_LIMIT,
} from "./limits.ts";

/** Stable codes of a failed Bot API request. */
export type TelegramErrorCode =
  | "telegram_unauthorized"
  | "telegram_rate_limited"
  | "telegram_bad_request"
  | "telegram_forbidden"
  | "telegram_conflict"
  | "telegram_server_error"
  | "telegram_unreachable"
  | "telegram_timeout"
  | "telegram_bad_response";

/** A Bot API request that failed; `description` is Telegram's (the token is never in it). */
export class TelegramApiError extends Error {
  /** Stable code. */
  readonly code: TelegramErrorCode;
  /** Telegram's `error_code` (HTTP status), when it answered. */
  readonly status: number | null;
  /** Seconds to wait before retrying (429's `parameters.retry_after`). */
  readonly retryAfterS: number | null;

  /**
   * Makes the error.
   *
   * @param code stable code
   * @param message sentence-case description
   * @param status Telegram's error_code
   * @param retryAfterS 429's retry_after
   * @param options the cause
   */
  constructor(
    code: TelegramErrorCode,
    message: string,
    status: number | null = null,
    retryAfterS: number | null = null,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "TelegramApiError";
    this.code = code;
    this.status = status;
    this.retryAfterS = retryAfterS;
  }

  /** Whether retrying the same request may succeed. */
  get retryable(): boolean {
    return [
      "telegram_rate_limited",
      "telegram_server_error",
      "telegram_unreachable",
      "telegram_timeout",
    ]
      .includes(this.code);
  }
}

/** The bot, as getMe reports it. */
export interface TelegramBot {
  /** The bot's user id. */
  id: number;
  /** Its @username. */
  username: string;
  /** Its display name. */
  firstName: string;
}

/** One raw update: validated by the adapter, which skips what it does not handle. */
export interface TelegramUpdate {
  /** The update's id (monotonic). */
  update_id: number;
  /** Everything else, unchecked. */
  [field: string]: unknown;
}

/** Options of {@linkcode TelegramBotApi}. */
export interface TelegramBotApiOptions {
  /** The bot token. */
  token: string;
  /** The Bot API's base URL, e.g. `https://api.telegram.org`. */
  apiBaseUrl: string;
  /** An HTTP(S) proxy URL (credentials allowed). */
  proxy?: string;
  /** Retries after a retryable failure. Default {@linkcode TELEGRAM_REQUEST_RETRIES}. */
  retries?: number;
  /** First backoff in ms. Default {@linkcode TELEGRAM_BACKOFF_BASE_MS}. */
  backoffBaseMs?: number;
  /** Waits; tests pass a fake. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The client. */
export class TelegramBotApi {
  readonly #token: string;
  readonly #base: string;
  readonly #client: Deno.HttpClient | undefined;
  readonly #retries: number;
  readonly #backoffBaseMs: number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  /**
   * Makes the client (no request yet).
   *
   * @param options token, base URL, proxy, retry policy
   */
  constructor(options: TelegramBotApiOptions) {
    this.#token = options.token;
    this.#base = options.apiBaseUrl.replace(/\/+$/, "");
    this.#client = options.proxy === undefined
      ? undefined
      : Deno.createHttpClient({ proxy: proxyOf(options.proxy) });
    this.#retries = options.retries ?? TELEGRAM_REQUEST_RETRIES;
    this.#backoffBaseMs = options.backoffBaseMs ?? TELEGRAM_BACKOFF_BASE_MS;
    this.#sleep = options.sleep ?? abortableSleep;
  }

  /**
   * getMe: checks the token.
   *
   * @param signal cancels the request
   * @returns the bot
   * @throws {TelegramApiError} `telegram_unauthorized` for a bad token, others as they come
   */
  async getMe(signal?: AbortSignal): Promise<TelegramBot> {
    const result = await this.#call("getMe", {}, TELEGRAM_REQUEST_TIMEOUT_MS, signal);
    const bot = result as Record<string, unknown>;
    if (typeof bot?.id !== "number" || typeof bot.username !== "string") {
      throw new TelegramApiError("telegram_bad_response", "getMe answered without a bot id");
    }
    return { id: bot.id, username: bot.username, firstName: String(bot.first_name ?? "") };
  }

  /**
   * getUpdates with long polling. Passing `offset` acknowledges every update below it.
   *
   * @param offset the first update id wanted
   * @param timeoutS how long Telegram may hold the request open, in seconds
   * @param signal cancels the poll
   * @returns the updates, oldest first (entries without a numeric update_id are dropped)
   */
  async getUpdates(
    offset: number,
    timeoutS: number,
    signal?: AbortSignal,
  ): Promise<TelegramUpdate[]> {
    const result = await this.#call(
      "getUpdates",
      { offset, timeout: timeoutS, limit: TELEGRAM_UPDATES_LIMIT, allowed_updates: [] },
      timeoutS * 1000 + TELEGRAM_POLL_GRACE_MS,
      signal,
      0, // the poller retries itself, after acknowledging what it handled
    );
    if (!Array.isArray(result)) {
      throw new TelegramApiError("telegram_bad_response", "getUpdates answered without a list");
    }
    return result.filter((update): update is TelegramUpdate =>
      typeof update === "object" && update !== null && Number.isSafeInteger(update.update_id)
    );
  }

  /**
   * sendMessage as plain text (no parse_mode: nothing in the text can be refused as markup).
   *
   * @param chatId the chat
   * @param text 1–4096 UTF-16 code units
   * @param signal cancels
   * @returns the sent message's id
   */
  async sendMessage(chatId: string, text: string, signal?: AbortSignal): Promise<number> {
    const result = await this.#call(
      "sendMessage",
      { chat_id: chatId, text, link_preview_options: { is_disabled: true } },
      TELEGRAM_REQUEST_TIMEOUT_MS,
      signal,
    ) as Record<string, unknown>;
    if (typeof result?.message_id !== "number") {
      throw new TelegramApiError(
        "telegram_bad_response",
        "sendMessage answered without a message id",
      );
    }
    return result.message_id;
  }

  /**
   * sendChatAction "typing".
   *
   * @param chatId the chat
   * @param signal cancels
   */
  async sendTyping(chatId: string, signal?: AbortSignal): Promise<void> {
    await this.#call(
      "sendChatAction",
      { chat_id: chatId, action: "typing" },
      TELEGRAM_REQUEST_TIMEOUT_MS,
      signal,
      0,
    );
  }

  /** Releases the proxy client, if any. */
  close(): void {
    this.#client?.close();
  }

  async #call(
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    retries = this.#retries,
  ): Promise<unknown> {
    for (let attempt = 0;; attempt++) {
      try {
        return await this.#once(method, params, timeoutMs, signal);
      } catch (error) {
        if (!(error instanceof TelegramApiError) || !error.retryable || attempt >= retries) {
          throw error;
        }
        if (signal?.aborted) throw error;
        const backoff = Math.min(this.#backoffBaseMs * 2 ** attempt, TELEGRAM_BACKOFF_MAX_MS);
        const wait = error.retryAfterS !== null ? error.retryAfterS * 1000 : backoff;
        if (wait > TELEGRAM_BACKOFF_MAX_MS) throw error; // the caller schedules a long wait
        await this.#sleep(wait, signal);
      }
    }
  }

  async #once(
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetch(`${this.#base}/bot${this.#token}/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(params),
        signal: combined,
        ...(this.#client ? { client: this.#client } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (timeout.aborted) {
        throw new TelegramApiError("telegram_timeout", `${method} timed out after ${timeoutMs} ms`);
      }
      throw new TelegramApiError("telegram_unreachable", `${method} failed: ${this.#clean(error)}`);
    }
    let body: Record<string, unknown>;
    try {
      body = await response.json();
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw this.#statusError(method, response.status, null, null);
    }
    if (body?.ok === true) return body.result;
    const status = typeof body?.error_code === "number" ? body.error_code : response.status;
    const description = typeof body?.description === "string"
      ? this.#clean(body.description)
      : null;
    const parameters = body?.parameters as Record<string, unknown> | undefined;
    const retryAfter = typeof parameters?.retry_after === "number" ? parameters.retry_after : null;
    throw this.#statusError(method, status, description, retryAfter);
  }

  #statusError(
    method: string,
    status: number,
    description: string | null,
    retryAfter: number | null,
  ): TelegramApiError {
    const text = `${method}: ${status} ${description ?? "(no description)"}`;
    const code: TelegramErrorCode = status === 401 || status === 404
      ? "telegram_unauthorized"
      : status === 429
      ? "telegram_rate_limited"
      : status === 403
      ? "telegram_forbidden"
      : status === 409
      ? "telegram_conflict"
      : status >= 500
      ? "telegram_server_error"
      : status >= 400
      ? "telegram_bad_request"
      : "telegram_bad_response";
    return new TelegramApiError(
      code,
      text,
      status,
      code === "telegram_rate_limited" ? retryAfter ?? 1 : null,
    );
  }

  /** Error texts may quote the URL, and so the token. */
  #clean(error: unknown): string {
    const text = error instanceof Error ? error.message : String(error);
    return text.split(this.#token).join("[redacted]");
  }
}

function proxyOf(url: string): Deno.Proxy {
  const parsed = new URL(url);
  const basicAuth = parsed.username !== ""
    ? {
      username: decodeURIComponent(parsed.username),
      password: decodeURIComponent(parsed.password),
    }
    : undefined;
  parsed.username = "";
  parsed.password = "";
  return { url: parsed.href, ...(basicAuth ? { basicAuth } : {}) };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

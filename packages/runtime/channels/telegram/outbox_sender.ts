/**
 * Delivers the outbox: each due row is split into ≤ 4,096-unit pieces and sent piece by
 * piece, each accepted piece committed before the next is sent (a restart resumes at the
 * next piece and never repeats one). Rate limiting waits `retry_after`; network errors and
 * 5xx back off and retry up to a bound; any other refusal (400 chat not found, 403 blocked)
 * is recorded on the row as failed and not retried.
 *
 * @module
 */
import type { ChannelStore, OutboxRow } from "@daedalus/storage";
import { TelegramApiError, type TelegramBotApi } from "./bot_api.ts";
import {
  OUTBOX_MAX_ATTEMPTS,
  OUTBOX_TICK_MS,
  TELEGRAM_BACKOFF_BASE_MS,
  TELEGRAM_BACKOFF_MAX_MS,
} from "./limits.ts";
import { splitTelegramText } from "./split_text.ts";

/** Options of {@linkcode OutboxSender}. */
export interface OutboxSenderOptions {
  /** channels.db. */
  store: ChannelStore;
  /** The Bot API. */
  api: TelegramBotApi;
  /** The channel id (`telegram`). */
  channelId: string;
  /** The bot account. */
  accountId: string;
  /** Log lines. */
  log: (line: string) => void;
  /** Told after each row's outcome (status views refresh). */
  onChange?: () => void;
}

/** The delivery loop of one bot account. */
export class OutboxSender {
  readonly #options: OutboxSenderOptions;
  readonly #abort = new AbortController();
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;

  /**
   * @param options store, API and account
   */
  constructor(options: OutboxSenderOptions) {
    this.#options = options;
  }

  /** Starts the loop (once). */
  start(): void {
    this.#loop ??= this.#run();
  }

  /** Looks at the outbox now (a row was enqueued). */
  poke(): void {
    this.#wake?.();
  }

  /** Stops the loop; an attempt in flight is aborted and retried after a restart. */
  async stop(): Promise<void> {
    this.#abort.abort();
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const { store, channelId, accountId, log } = this.#options;
    while (!this.#abort.signal.aborted) {
      try {
        for (const row of store.due(channelId, accountId)) {
          if (this.#abort.signal.aborted) return;
          await this.#deliver(row);
          this.#options.onChange?.();
        }
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        log(`telegram outbox: ${(error as Error).message}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, OUTBOX_TICK_MS);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = null;
    }
  }

  async #deliver(row: OutboxRow): Promise<void> {
    const { store, api, log } = this.#options;
    const pieces = splitTelegramText(row.text);
    if (pieces.length === 0) pieces.push("(empty reply)");
    store.markSending(row.id);
    try {
      for (let index = row.partsSent; index < pieces.length; index++) {
        const messageId = await api.sendMessage(row.chatId, pieces[index], this.#abort.signal);
        store.markPartSent(row.id, index + 1, messageId);
      }
      store.markSent(row.id);
    } catch (error) {
      if (this.#abort.signal.aborted) return; // stays `sending`: due again after a restart
      const code = error instanceof TelegramApiError ? error.code : "telegram_unreachable";
      const attempts = row.attempts + 1;
      if (error instanceof TelegramApiError && error.code === "telegram_rate_limited") {
        store.markRetry(row.id, code, new Date(Date.now() + (error.retryAfterS ?? 1) * 1000));
      } else if (error instanceof TelegramApiError && !error.retryable) {
        log(`telegram outbox: reply ${row.id} refused: ${error.message}`);
        store.markFailed(row.id, code);
      } else if (attempts >= OUTBOX_MAX_ATTEMPTS) {
        log(
          `telegram outbox: reply ${row.id} failed after ${attempts} attempts: ${
            (error as Error).message
          }`,
        );
        store.markFailed(row.id, code);
      } else {
        const backoff = Math.min(TELEGRAM_BACKOFF_BASE_MS * 2 ** attempts, TELEGRAM_BACKOFF_MAX_MS);
        store.markRetry(row.id, code, new Date(Date.now() + backoff));
      }
    }
  }
}

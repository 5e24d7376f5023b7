/**
 * The Telegram channel of one configured bot: checks the token (getMe; 401 marks the
 * channel failed and stops it until reconfigured), long-polls updates and acknowledges
 * each once handled (skipped ones too, so none repeats), binds the first private chat that
 * sends `/start` as the owner (its thread bound to the configured agent profile, as `/new`'s
 * are), refuses everyone else politely, turns the owner's messages
 * into turns on the bound thread (steering the active Run instead while one runs), answers
 * `/new`, `/stop`, `/model`, `/status` and `/help`, shows "typing…" during a Run, and
 * enqueues each settled Run's reply in the outbox once (the unique index), including
 * replies a crash left unenqueued (looked for at start).
 *
 * @module
 */
import { type JournalEvent, RpcError } from "@daedalus/protocol";
import type { ChannelBinding, ChannelStore, TelegramChannelConfig } from "@daedalus/storage";
import type { ChannelCall } from "../channel_call.ts";
import { TelegramApiError, type TelegramBot, TelegramBotApi } from "./bot_api.ts";
import {
  TELEGRAM_BACKOFF_BASE_MS,
  TELEGRAM_BACKOFF_MAX_MS,
  TELEGRAM_POLL_TIMEOUT_S,
  TYPING_INTERVAL_MS,
} from "./limits.ts";
import { OutboxSender } from "./outbox_sender.ts";
import { runReplyText, type SettledRun } from "./run_reply.ts";
import { type IncomingText, readCommand, readUpdate } from "./updates.ts";

/** The channel id in channels.db. */
export const TELEGRAM_CHANNEL_ID = "telegram";

/** Where the channel is. */
export type TelegramChannelStatus = "starting" | "running" | "failed" | "stopped";

/** What the channel reports about itself. */
export interface TelegramChannelState {
  /** Where it is. */
  status: TelegramChannelStatus;
  /** Why it failed (a stable code), else null. */
  reasonCode: string | null;
  /** The last error's text (never the token), else null. */
  lastError: string | null;
  /** The bot, once getMe answered. */
  bot: { id: string; username: string } | null;
}

/** Options of {@linkcode TelegramChannel}. */
export interface TelegramChannelOptions {
  /** The configuration (enabled). */
  config: TelegramChannelConfig;
  /** channels.db. */
  store: ChannelStore;
  /** Calls the runtime's RPC methods. */
  call: ChannelCall;
  /** Subscribes to committed journal events. */
  subscribe: (listener: (event: JournalEvent) => void) => () => void;
  /** Persists a new default model (`/model`). */
  setDefaultModel: (providerId: string, modelId: string) => Promise<void>;
  /** Log lines (stderr). */
  log: (line: string) => void;
  /** Told on every status change. */
  onStatus: (state: TelegramChannelState) => void;
  /** Told when the binding or the outbox changed. */
  onChange?: () => void;
}

/** One running bot. */
export class TelegramChannel {
  readonly #options: TelegramChannelOptions;
  readonly #api: TelegramBotApi;
  readonly #abort = new AbortController();
  #state: TelegramChannelState = {
    status: "starting",
    reasonCode: null,
    lastError: null,
    bot: null,
  };
  #accountId: string | null = null;
  #sender: OutboxSender | null = null;
  #loop: Promise<void> | null = null;
  #unsubscribe: (() => void) | null = null;
  #activeRunId: string | null = null;
  #typing: ReturnType<typeof setInterval> | null = null;
  #model: { providerId: string; modelId: string };

  /**
   * @param options config, stores and runtime access
   */
  constructor(options: TelegramChannelOptions) {
    this.#options = options;
    this.#api = new TelegramBotApi({
      token: options.config.token,
      apiBaseUrl: options.config.apiBaseUrl ?? "https://api.telegram.org",
      proxy: options.config.proxy,
    });
    this.#model = {
      providerId: options.config.defaultProviderId,
      modelId: options.config.defaultModelId,
    };
  }

  /** The channel's state. */
  get state(): TelegramChannelState {
    return this.#state;
  }

  /** The bot account id, once known. */
  get accountId(): string | null {
    return this.#accountId;
  }

  /** The Bot API client (for `channel.test`). */
  get api(): TelegramBotApi {
    return this.#api;
  }

  /** Starts polling (once). */
  start(): void {
    this.#loop ??= this.#run();
  }

  /** Stops polling and delivery; what is in flight is retried after the next start. */
  async stop(): Promise<void> {
    this.#abort.abort();
    this.#unsubscribe?.();
    this.#stopTyping();
    await this.#loop;
    await this.#sender?.stop();
    this.#api.close();
    if (this.#state.status !== "failed") this.#setState({ status: "stopped" });
  }

  /** Looks at the outbox now. */
  pokeOutbox(): void {
    this.#sender?.poke();
  }

  async #run(): Promise<void> {
    const bot = await this.#identify();
    if (bot === null) return;
    const accountId = this.#accountId = String(bot.id);
    this.#setState({
      status: "running",
      reasonCode: null,
      lastError: null,
      bot: { id: accountId, username: bot.username },
    });
    this.#sender = new OutboxSender({
      store: this.#options.store,
      api: this.#api,
      channelId: TELEGRAM_CHANNEL_ID,
      accountId,
      log: this.#options.log,
      onChange: this.#options.onChange,
    });
    this.#unsubscribe = this.#options.subscribe((event) => this.#onEvent(event));
    await this.#catchUp();
    this.#sender.start();
    await this.#poll(accountId);
  }

  /** getMe until it answers; null when the token is refused or the channel stops. */
  async #identify(): Promise<TelegramBot | null> {
    for (let attempt = 0; !this.#abort.signal.aborted; attempt++) {
      try {
        return await this.#api.getMe(this.#abort.signal);
      } catch (error) {
        if (this.#abort.signal.aborted) return null;
        if (this.#stopsChannel(error)) return null;
        this.#setState({ lastError: (error as Error).message });
        await this.#pause(attempt);
      }
    }
    return null;
  }

  async #poll(accountId: string): Promise<void> {
    const { store, log } = this.#options;
    let failures = 0;
    while (!this.#abort.signal.aborted) {
      let updates;
      try {
        updates = await this.#api.getUpdates(
          store.cursor(TELEGRAM_CHANNEL_ID, accountId),
          TELEGRAM_POLL_TIMEOUT_S,
          this.#abort.signal,
        );
        failures = 0;
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        if (this.#stopsChannel(error)) return;
        log(`telegram: getUpdates failed: ${(error as Error).message}`);
        this.#setState({ lastError: (error as Error).message });
        await this.#pause(failures++);
        continue;
      }
      for (const update of updates) {
        const read = readUpdate(update);
        try {
          if (read.kind === "skip") {
            log(`telegram: skipped update ${read.updateId}: ${read.reason}`);
          } else await this.#onText(accountId, read);
        } catch (error) {
          log(`telegram: update ${update.update_id} not handled: ${(error as Error).message}`);
        }
        store.advanceCursor(TELEGRAM_CHANNEL_ID, accountId, update.update_id + 1);
      }
    }
  }

  /** A refused token marks the channel failed and ends it; anything else is retried. */
  #stopsChannel(error: unknown): boolean {
    if (!(error instanceof TelegramApiError) || error.code !== "telegram_unauthorized") {
      return false;
    }
    this.#options.log(
      `telegram: the bot token was refused (${error.message}); polling stops until reconfigured`,
    );
    this.#setState({
      status: "failed",
      reasonCode: "telegram_unauthorized",
      lastError: error.message,
    });
    return true;
  }

  async #pause(attempt: number): Promise<void> {
    const ms = Math.min(TELEGRAM_BACKOFF_BASE_MS * 2 ** attempt, TELEGRAM_BACKOFF_MAX_MS);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#abort.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
  }

  #binding(): ChannelBinding | null {
    return this.#accountId === null
      ? null
      : this.#options.store.binding(TELEGRAM_CHANNEL_ID, this.#accountId);
  }

  async #onText(accountId: string, message: IncomingText): Promise<void> {
    const binding = this.#binding();
    const command = readCommand(message.text);
    if (binding === null) {
      if (command?.name !== "start") {
        return this.#say(message.chatId, "Send /start to connect this chat to Daedalus.");
      }
      return this.#bind(accountId, message);
    }
    if (
      binding.chatId !== message.chatId ||
      (binding.ownerUserId ?? message.userId) !== message.userId
    ) {
      return this.#say(
        message.chatId,
        "Sorry, this bot belongs to someone else and only answers its owner.",
      );
    }
    if (command === null) return this.#startOrSteer(binding, message);
    switch (command.name) {
      case "start":
        return this.#say(
          message.chatId,
          "You are already connected. Send a message to talk to Daedalus.",
        );
      case "new":
        return this.#newThread(accountId, message.chatId);
      case "stop":
        return this.#stopRun(message.chatId);
      case "model":
        return this.#modelCommand(message.chatId, command.argument);
      case "status":
        return this.#say(message.chatId, await this.#statusText(binding));
      default:
        return this.#say(
          message.chatId,
          "Commands: /new starts a new conversation, /stop stops the running answer, " +
            "/model lists or switches models (/model provider/model), /status shows what is running.",
        );
    }
  }

  async #bind(accountId: string, message: IncomingText): Promise<void> {
    const thread = await this.#createThread(`telegram-${accountId}-${message.updateId}`);
    const bound = this.#options.store.bind({
      channelId: TELEGRAM_CHANNEL_ID,
      accountId,
      chatId: message.chatId,
      threadId: thread.threadId,
      branchId: thread.branchId,
      ownerUserId: message.userId,
      ownerUsername: message.username,
    });
    this.#options.log(`telegram: bound to the owner's chat (user ${bound.ownerUserId})`);
    this.#options.onChange?.();
    await this.#say(
      message.chatId,
      "Connected. Messages you send here go to Daedalus; /help lists the commands.",
    );
  }

  /** A thread bound to the channel's profile (absent, or removed since: the default). */
  async #createThread(clientRequestId: string): Promise<{ threadId: string; branchId: string }> {
    type Created = { thread: { id: string; defaultBranchId: string } };
    const agentId = this.#options.config.defaultAgentId;
    const create = (agent: { agentId?: string }) =>
      this.#options.call<Created>("thread.create", {
        title: "Telegram",
        clientRequestId,
        ...agent,
      });
    let created: Created;
    try {
      created = await create(agentId === undefined ? {} : { agentId });
    } catch (error) {
      if (agentId === undefined || reasonCodeOf(error) !== "agent_not_found") throw error;
      // The owner's message must not be lost to a profile deleted after configuring.
      this.#options.log(
        `telegram: the channel's agent profile ${agentId} is gone; using the default profile`,
      );
      created = await create({});
    }
    return { threadId: created.thread.id, branchId: created.thread.defaultBranchId };
  }

  async #newThread(accountId: string, chatId: string): Promise<void> {
    const thread = await this.#createThread(`telegram-${accountId}-new-${crypto.randomUUID()}`);
    this.#options.store.rebindThread(
      TELEGRAM_CHANNEL_ID,
      accountId,
      thread.threadId,
      thread.branchId,
    );
    this.#activeRunId = null;
    this.#stopTyping();
    this.#options.onChange?.();
    await this.#say(chatId, "Started a new conversation.");
  }

  async #startOrSteer(binding: ChannelBinding, message: IncomingText): Promise<void> {
    const clientRequestId = `telegram-${binding.accountId}-${message.updateId}`;
    if (this.#activeRunId !== null) {
      try {
        await this.#options.call("run.steer", {
          runId: this.#activeRunId,
          content: message.text,
          clientRequestId,
        });
        return;
      } catch (error) {
        // The Run settled meanwhile: the message starts a turn of its own.
        this.#options.log(
          `telegram: steering failed, starting a turn: ${(error as Error).message}`,
        );
      }
    }
    const started = await this.#options.call<{ runId: string }>("turn.start", {
      threadId: binding.threadId,
      content: message.text,
      providerId: this.#model.providerId,
      modelId: this.#model.modelId,
      clientRequestId,
    });
    this.#activeRunId = started.runId;
    this.#startTyping(binding.chatId);
  }

  async #stopRun(chatId: string): Promise<void> {
    if (this.#activeRunId === null) return this.#say(chatId, "Nothing is running.");
    await this.#options.call("run.cancel", { runId: this.#activeRunId });
  }

  async #modelCommand(chatId: string, argument: string): Promise<void> {
    const listed = await this.#options.call<
      { models: { providerId: string; id: string; enabled: boolean }[] }
    >(
      "model.list",
      {},
    );
    const models = listed.models.filter((model) => model.enabled);
    if (argument === "") {
      const lines = models.map((model) => {
        const ref = `${model.providerId}/${model.id}`;
        const current = model.providerId === this.#model.providerId &&
          model.id === this.#model.modelId;
        return `${current ? "• " : "  "}${ref}`;
      });
      return this.#say(
        chatId,
        `Models (switch with /model provider/model):\n${lines.join("\n") || "(none configured)"}`,
      );
    }
    const slash = argument.indexOf("/");
    const choice = models.find((model) =>
      slash > 0 && model.providerId === argument.slice(0, slash) &&
      model.id === argument.slice(slash + 1)
    );
    if (choice === undefined) {
      return this.#say(chatId, `No enabled model ${argument}; /model lists them.`);
    }
    this.#model = { providerId: choice.providerId, modelId: choice.id };
    await this.#options.setDefaultModel(choice.providerId, choice.id);
    await this.#say(chatId, `New turns use ${argument}.`);
  }

  async #statusText(binding: ChannelBinding): Promise<string> {
    const model = `${this.#model.providerId}/${this.#model.modelId}`;
    if (this.#activeRunId === null) return `Idle. Model: ${model}.`;
    const run = await this.#findRun(binding.threadId, this.#activeRunId);
    return `Run ${this.#activeRunId} is ${run?.status ?? "running"}. Model: ${model}.`;
  }

  /** Sends a short reply through the outbox (no Run: never deduplicated). */
  #say(chatId: string, text: string): void {
    if (this.#accountId === null) return;
    this.#options.store.enqueue({
      channelId: TELEGRAM_CHANNEL_ID,
      accountId: this.#accountId,
      chatId,
      runId: null,
      text,
    });
    this.#sender?.poke();
  }

  #onEvent(event: JournalEvent): void {
    if (event.runId === null) return;
    if (event.type === "run.state_changed" && event.runId === this.#activeRunId) {
      // Approvals are given in the app: say so rather than leave "typing…" on for hours.
      const status = (event.payload as { status?: string }).status;
      const binding = this.#binding();
      if (status === "waiting" && binding !== null) {
        this.#stopTyping();
        this.#say(
          binding.chatId,
          "This run waits for your approval: open Daedalus to allow or deny it.",
        );
      } else if (status === "running" && binding !== null && this.#typing === null) {
        this.#startTyping(binding.chatId);
      }
      return;
    }
    if (event.type !== "run.settled") return;
    const binding = this.#binding();
    if (binding === null || event.threadId !== binding.threadId) return;
    if (event.runId === this.#activeRunId) {
      this.#activeRunId = null;
      this.#stopTyping();
    }
    const runId = event.runId;
    this.#enqueueReply(binding, runId).catch((error) =>
      this.#options.log(`telegram: reply of ${runId} not enqueued: ${(error as Error).message}`)
    );
  }

  async #enqueueReply(binding: ChannelBinding, runId: string): Promise<void> {
    if (this.#options.store.hasReply(TELEGRAM_CHANNEL_ID, binding.accountId, runId)) return;
    const run = await this.#findRun(binding.threadId, runId);
    if (run === null) return;
    const added = this.#options.store.enqueue({
      channelId: TELEGRAM_CHANNEL_ID,
      accountId: binding.accountId,
      chatId: binding.chatId,
      runId,
      text: runReplyText(run),
    });
    if (added) {
      this.#sender?.poke();
      this.#options.onChange?.();
    }
  }

  /** After a restart: replies of settled Runs a crash left unenqueued, and the active Run. */
  async #catchUp(): Promise<void> {
    const binding = this.#binding();
    if (binding === null) return;
    try {
      const page = await this.#options.call<{ turns: { runs: (SettledRun & { id: string })[] }[] }>(
        "turn.list",
        { threadId: binding.threadId, direction: "backward", limit: 10 },
      );
      for (const run of page.turns.flatMap((turn) => turn.runs)) {
        if (["completed", "failed", "cancelled"].includes(run.status)) {
          await this.#enqueueReply(binding, run.id);
        } else {
          this.#activeRunId = run.id;
          this.#startTyping(binding.chatId);
        }
      }
    } catch (error) {
      this.#options.log(
        `telegram: catching up on the bound thread failed: ${(error as Error).message}`,
      );
    }
  }

  async #findRun(threadId: string, runId: string): Promise<(SettledRun & { id: string }) | null> {
    const page = await this.#options.call<{ turns: { runs: (SettledRun & { id: string })[] }[] }>(
      "turn.list",
      { threadId, direction: "backward", limit: 10 },
    );
    return page.turns.flatMap((turn) => turn.runs).find((run) => run.id === runId) ?? null;
  }

  #startTyping(chatId: string): void {
    this.#stopTyping();
    const send = () =>
      this.#api.sendTyping(chatId, this.#abort.signal).catch(() => {
        // Typing is a courtesy: a lost indicator is not worth a log line per tick.
      });
    send();
    this.#typing = setInterval(send, TYPING_INTERVAL_MS);
  }

  #stopTyping(): void {
    if (this.#typing !== null) clearInterval(this.#typing);
    this.#typing = null;
  }

  #setState(change: Partial<TelegramChannelState>): void {
    this.#state = { ...this.#state, ...change };
    this.#options.onStatus(this.#state);
  }
}

function reasonCodeOf(error: unknown): string | null {
  return error instanceof RpcError ? error.reasonCode : null;
}

/**
 * The runtime's channels: reads channels.yaml at start, protects its credentials, runs the
 * Telegram channel while it is enabled, journals `channel.status_changed` on each state
 * change, and serves `channel.list`, `channel.configure` (checking the agent profile
 * the channel's threads are bound to), `channel.test` and `channel.reset_binding`. channels.db is opened here and closed with the runtime.
 *
 * @module
 */
import {
  type ChannelStatus,
  type JournalEvent,
  type ResultOf,
  RPC_ERROR_CODES,
  RpcError,
  type ValidParamsOf,
} from "@daedalus/protocol";
import {
  channelCredentials,
  type ChannelsConfig,
  ChannelsConfigError,
  channelsConfigPath,
  channelsDbPath,
  ChannelStore,
  homePaths,
  readChannelsConfig,
  readConfig,
  type StateStore,
  type TelegramChannelConfig,
  writeChannelsConfig,
} from "@daedalus/storage";
import type { ProtectedValues } from "../security/protected_values.ts";
import { agentCatalog } from "../agents/agent_catalog.ts";
import type { Handled } from "../services/services.ts";
import type { ChannelCall } from "./channel_call.ts";
import { TelegramApiError } from "./telegram/bot_api.ts";
import { TELEGRAM_CHANNEL_ID, TelegramChannel } from "./telegram/telegram_channel.ts";

type ChannelMethod =
  | "channel.list"
  | "channel.configure"
  | "channel.test"
  | "channel.reset_binding";

/** The `channel.*` handlers. */
export type ChannelHandlers = {
  [M in ChannelMethod]: (params: ValidParamsOf<M>) => Promise<Handled<ResultOf<M>>>;
};

/** Options of {@linkcode ChannelService.open}. */
export interface ChannelServiceOptions {
  /** The runtime home (channels.yaml and channels.db live there). */
  home: string;
  /** The state store (`channel.status_changed` is journaled there). */
  store: StateStore;
  /** The runtime's protected values: the token and proxy credentials join them. */
  protectedValues: ProtectedValues;
  /** Subscribes to committed journal events. */
  subscribe: (listener: (event: JournalEvent) => void) => () => void;
  /** Log lines (stderr, redacted by the caller's console). */
  log?: (line: string) => void;
}

/** The runtime's channels. */
export class ChannelService {
  readonly #options: ChannelServiceOptions;
  readonly #db: ChannelStore;
  readonly #configPath: string;
  #config: ChannelsConfig;
  #channel: TelegramChannel | null = null;
  #call: ChannelCall | null = null;
  #lastAnnounced = "";
  #closed = false;

  private constructor(options: ChannelServiceOptions, db: ChannelStore, config: ChannelsConfig) {
    this.#options = options;
    this.#db = db;
    this.#config = config;
    this.#configPath = channelsConfigPath(options.home);
  }

  /**
   * Reads channels.yaml (a broken file: no channel, with a log line) and opens channels.db.
   *
   * @param options home, store, protected values
   * @returns the service, not yet started
   * @throws {ChannelsDatabaseError} when channels.db has another schema
   */
  static async open(options: ChannelServiceOptions): Promise<ChannelService> {
    const log = options.log ?? ((line: string) => console.error(line));
    const config = await readChannelsConfig(channelsConfigPath(options.home)).catch((error) => {
      log(`channels.yaml: ${(error as Error).message}; starting without channels`);
      return { version: 1 } as ChannelsConfig;
    });
    for (const secret of channelCredentials(config)) options.protectedValues.register(secret);
    const db = ChannelStore.open(channelsDbPath(options.home));
    return new ChannelService({ ...options, log }, db, config);
  }

  /**
   * Starts the configured channel once the runtime's RPC methods can be called.
   *
   * @param call calls the runtime's methods (the dispatcher, as a channel session)
   */
  start(call: ChannelCall): void {
    this.#call = call;
    this.#restart();
  }

  /** The `channel.*` handlers. */
  handlers(): ChannelHandlers {
    return {
      "channel.list": () => Promise.resolve({ result: { channels: [this.#status()] } }),
      "channel.configure": async (params) => ({
        result: { channel: await this.#configure(params) },
      }),
      "channel.test": () => this.#test().then((result) => ({ result })),
      "channel.reset_binding": () => {
        const accountId = this.#accountId();
        const reset = accountId !== null && this.#db.resetBinding(TELEGRAM_CHANNEL_ID, accountId);
        this.#announce();
        return Promise.resolve({ result: { reset, channel: this.#status() } });
      },
    };
  }

  /** Stops the channel and closes channels.db. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#channel?.stop();
    this.#channel = null;
    this.#db.close();
  }

  #restart(): void {
    const previous = this.#channel;
    this.#channel = null;
    const stopped = previous?.stop() ?? Promise.resolve();
    const telegram = this.#config.telegram;
    if (this.#call === null || this.#closed) return;
    if (telegram === undefined || !telegram.enabled) {
      // A channel that was not running and is not now changed nothing: a start with none
      // configured journals nothing (a restart must leave the journal as it was).
      stopped.then(() => previous ? this.#announce() : this.#remember());
      return;
    }
    const call = this.#call;
    stopped.then(() => {
      if (this.#closed || this.#config.telegram !== telegram) return;
      const channel = new TelegramChannel({
        config: telegram,
        store: this.#db,
        call,
        subscribe: this.#options.subscribe,
        setDefaultModel: (providerId, modelId) => this.#setDefaultModel(providerId, modelId),
        log: this.#options.log!,
        onStatus: () => this.#announce(),
        onChange: () => this.#announce(),
      });
      this.#channel = channel;
      channel.start();
      this.#announce();
    });
  }

  async #configure(params: ValidParamsOf<"channel.configure">): Promise<ChannelStatus> {
    const previous = this.#config.telegram;
    const token = params.token ?? previous?.token;
    if (token === undefined) {
      throw new RpcError(
        RPC_ERROR_CODES.invalidParams,
        "channels_config_invalid",
        "A bot token is required",
        {
          field: "token",
        },
      );
    }
    const proxy = params.proxy === undefined ? previous?.proxy : params.proxy ?? undefined;
    const agentId = params.defaultAgentId === undefined
      ? previous?.defaultAgentId
      : params.defaultAgentId ?? undefined;
    if (agentId !== undefined && agentId !== previous?.defaultAgentId) {
      await this.#checkAgent(agentId);
    }
    const telegram: TelegramChannelConfig = {
      enabled: params.enabled,
      token,
      ...(proxy ? { proxy } : {}),
      ...(params.apiBaseUrl ? { apiBaseUrl: params.apiBaseUrl } : {}),
      defaultProviderId: params.defaultProviderId,
      defaultModelId: params.defaultModelId,
      ...(agentId ? { defaultAgentId: agentId } : {}),
    };
    const next: ChannelsConfig = { version: 1, telegram };
    // Protected before anything can echo it (an error, a log line).
    for (
      const secret of channelCredentials({
        version: 1,
        telegram: { ...telegram, proxy: undefined },
      })
    ) {
      this.#options.protectedValues.register(secret);
    }
    try {
      await writeChannelsConfig(this.#configPath, next);
    } catch (error) {
      if (error instanceof ChannelsConfigError && error.code !== "channels_config_unwritable") {
        throw new RpcError(
          RPC_ERROR_CODES.invalidParams,
          "channels_config_invalid",
          this.#options.protectedValues.redact(error.message),
        );
      }
      throw error;
    }
    for (const secret of channelCredentials(next)) this.#options.protectedValues.register(secret);
    this.#config = next;
    this.#restart();
    return this.#status();
  }

  /**
   * Refuses a profile that does not exist, as `thread.create` would (one kept from before
   * is not checked again: a profile removed since must not block other changes; the
   * channel's threads then get the default).
   */
  async #checkAgent(agentId: string): Promise<void> {
    const config = await readConfig(homePaths(this.#options.home).config).catch(() => null);
    if (agentCatalog(config?.agents ?? {}).find(agentId)) return;
    throw new RpcError(
      RPC_ERROR_CODES.invalidParams,
      "agent_not_found",
      `There is no agent profile "${agentId}" (agent.list names them)`,
      { field: "defaultAgentId" },
    );
  }

  async #setDefaultModel(providerId: string, modelId: string): Promise<void> {
    const telegram = this.#config.telegram;
    if (telegram === undefined) return;
    // The running channel already switched; only the file changes (no restart).
    const next: ChannelsConfig = {
      version: 1,
      telegram: { ...telegram, defaultProviderId: providerId, defaultModelId: modelId },
    };
    await writeChannelsConfig(this.#configPath, next);
    this.#config = next;
  }

  async #test(): Promise<ResultOf<"channel.test">> {
    const channel = this.#channel;
    if (channel === null || this.#config.telegram === undefined) {
      throw new RpcError(
        RPC_ERROR_CODES.invalidParams,
        "channel_not_configured",
        "The Telegram channel is not configured and enabled",
      );
    }
    try {
      const bot = await channel.api.getMe();
      const accountId = String(bot.id);
      const binding = this.#db.binding(TELEGRAM_CHANNEL_ID, accountId);
      if (binding !== null) {
        await channel.api.sendMessage(binding.chatId, "Daedalus test message: the channel works.");
      }
      return {
        ok: true,
        bot: { id: accountId, username: bot.username },
        sentToOwner: binding !== null,
        reasonCode: null,
        message: null,
      };
    } catch (error) {
      const code = error instanceof TelegramApiError
        ? error.code === "telegram_unauthorized"
          ? "telegram_unauthorized"
          : error.retryable
          ? "telegram_unreachable"
          : error.code
        : "telegram_unreachable";
      const message = this.#options.protectedValues.redact((error as Error).message);
      return { ok: false, bot: null, sentToOwner: false, reasonCode: code, message };
    }
  }

  #accountId(): string | null {
    const token = this.#config.telegram?.token;
    return this.#channel?.accountId ?? (token ? token.slice(0, token.indexOf(":")) : null);
  }

  #status(): ChannelStatus {
    const telegram = this.#config.telegram;
    const state = this.#channel?.state;
    const accountId = this.#accountId();
    const binding = accountId === null ? null : this.#db.binding(TELEGRAM_CHANNEL_ID, accountId);
    const outbox = accountId === null ? [] : this.#db.outbox(TELEGRAM_CHANNEL_ID, accountId);
    const failed = outbox.find((row) => row.status === "failed" && row.lastErrorCode !== null);
    const redact = (text: string | null) =>
      text === null ? null : this.#options.protectedValues.redact(text);
    return {
      channel: "telegram",
      configured: telegram !== undefined,
      enabled: telegram?.enabled ?? false,
      state: state === undefined ? "disabled" : state.status,
      reasonCode: state?.reasonCode ?? null,
      lastError: redact(state?.lastError ?? null),
      bot: state?.bot ?? null,
      owner: binding === null ? null : {
        userId: binding.ownerUserId ?? binding.chatId,
        username: binding.ownerUsername,
        chatId: binding.chatId,
        threadId: binding.threadId,
        boundAt: binding.createdAt,
      },
      tokenSet: telegram !== undefined,
      tokenHint: telegram === undefined
        ? null
        : `${telegram.token.slice(0, telegram.token.indexOf(":"))}:…`,
      proxySet: telegram?.proxy !== undefined,
      apiBaseUrl: telegram?.apiBaseUrl ?? null,
      defaultProviderId: telegram?.defaultProviderId ?? null,
      defaultModelId: telegram?.defaultModelId ?? null,
      defaultAgentId: telegram?.defaultAgentId ?? null,
      pendingReplies:
        outbox.filter((row) => row.status === "pending" || row.status === "sending").length,
      lastFailure: failed ? { code: failed.lastErrorCode!, at: failed.updatedAt } : null,
    } as ChannelStatus;
  }

  /** Takes the current status as already known, without journaling it. */
  #remember(): void {
    if (this.#closed) return;
    this.#lastAnnounced = JSON.stringify(this.#announcement());
  }

  /** What `channel.status_changed` says of the channel now. */
  #announcement(): {
    channel: ChannelStatus["channel"];
    state: ChannelStatus["state"];
    reasonCode: ChannelStatus["reasonCode"];
    ownerUserId: string | null;
  } {
    const status = this.#status();
    return {
      channel: status.channel,
      state: status.state,
      reasonCode: status.reasonCode,
      ownerUserId: status.owner?.userId ?? null,
    };
  }

  #announce(): void {
    if (this.#closed) return;
    const channel = this.#announcement();
    const key = JSON.stringify(channel);
    if (key === this.#lastAnnounced) return;
    this.#lastAnnounced = key;
    try {
      this.#options.store.write(({ append }) =>
        append({ type: "channel.status_changed", payload: { channel } })
      );
    } catch (error) {
      this.#options.log!(`channels: cannot journal the status: ${(error as Error).message}`);
    }
  }
}

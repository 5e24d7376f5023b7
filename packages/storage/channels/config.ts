/**
 * The single owner of `<home>/channels.yaml` (seed 000 §4): version 1, at most 64 KiB,
 * owner-only (0600), replaced atomically (temp file, fsync, rename), separate from
 * config.yaml. It holds the Telegram bot token and the optional proxy (whose URL may carry
 * credentials): the runtime registers both as protected values.
 *
 * @example
 * ```ts ignore
 * const config = await readChannelsConfig(`${home}/channels.yaml`);
 * if (config.telegram?.enabled) startPolling(config.telegram);
 * ```
 *
 * @module
 */
import { dirname, join } from "node:path";
import { parse, stringify } from "yaml";
import { z } from "zod";
import { AgentId } from "@daedalus/protocol";
import { SECRET_FILE_MODE } from "../limits.ts";
import { ChannelsConfigError } from "./errors.ts";
import {
  CHANNEL_URL_MAX_CHARS,
  CHANNELS_CONFIG_MAX_BYTES,
  CHANNELS_CONFIG_VERSION,
  TELEGRAM_TOKEN_MAX_CHARS,
} from "./limits.ts";

/** Telegram's own Bot API, used when `apiBaseUrl` is absent. */
export const TELEGRAM_DEFAULT_API_BASE_URL = "https://api.telegram.org";

/** A bot token as BotFather issues it: the bot's numeric id, a colon, a secret. */
export const TELEGRAM_TOKEN_PATTERN = /^[0-9]{1,20}:[A-Za-z0-9_-]{20,}$/;

const httpUrl = z.string().max(CHANNEL_URL_MAX_CHARS).refine((text) => {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}, "must be an http:// or https:// URL");

const identifier = z.string().min(1).max(200);

// The protocol's schema is opaque here (a Schema, not a zod type): its check is reused.
const agentId = z.string().refine(
  (text) => AgentId.safeParse(text).success,
  "must be an agent profile id (1-64 of a-z, 0-9, _ and -)",
);

/** The `telegram` section of channels.yaml. */
export interface TelegramChannelConfig {
  /** Whether the runtime polls the bot. */
  enabled: boolean;
  /** The bot token (BotFather's); a protected value. */
  token: string;
  /** An HTTP(S) proxy URL for the Bot API; its credentials are protected values. */
  proxy?: string;
  /** The Bot API's base URL; default Telegram's own ({@linkcode TELEGRAM_DEFAULT_API_BASE_URL}). */
  apiBaseUrl?: string;
  /** The provider of the model the channel's turns use. */
  defaultProviderId: string;
  /** The model the channel's turns use. */
  defaultModelId: string;
  /**
   * The agent profile the threads the channel creates are bound to; absent: the user's
   * default profile. Whether it exists is checked by `channel.configure` (the runtime
   * knows the profiles), not here: a profile removed later must not make the file
   * unreadable.
   */
  defaultAgentId?: string;
}

/** The whole of channels.yaml. */
export interface ChannelsConfig {
  /** Always 1. */
  version: 1;
  /** The Telegram channel, when configured. */
  telegram?: TelegramChannelConfig;
}

const telegramSchema = z.object({
  enabled: z.boolean(),
  token: z.string().max(TELEGRAM_TOKEN_MAX_CHARS).regex(
    TELEGRAM_TOKEN_PATTERN,
    "must look like <bot id>:<secret> as BotFather issues it",
  ),
  proxy: httpUrl.optional(),
  apiBaseUrl: httpUrl.optional(),
  defaultProviderId: identifier,
  defaultModelId: identifier,
  defaultAgentId: agentId.optional(),
}).strict();

const channelsSchema = z.object({
  version: z.literal(CHANNELS_CONFIG_VERSION),
  telegram: telegramSchema.optional(),
}).strict();

// The types are checked against the schemas here: a drift between them fails `deno check`.
const _telegramMatches: z.ZodType<TelegramChannelConfig> = telegramSchema;
const _channelsMatches: z.ZodType<ChannelsConfig> = channelsSchema;
void _telegramMatches;
void _channelsMatches;

/** The contents used when channels.yaml does not exist: no channel configured. */
export function defaultChannelsConfig(): ChannelsConfig {
  return { version: CHANNELS_CONFIG_VERSION };
}

/**
 * The path of channels.yaml in a runtime home.
 *
 * @param home the runtime home
 * @returns `<home>/channels.yaml`
 */
export function channelsConfigPath(home: string): string {
  return join(home, "channels.yaml");
}

/**
 * Parses and validates channels.yaml text; an empty document is the default.
 *
 * @param text the file's text
 * @param path the file, for messages
 * @returns the validated config
 * @throws {ChannelsConfigError} `channels_config_too_large` or `channels_config_invalid`
 *   (the message names the key and the rule, never a value)
 */
export function parseChannelsConfig(text: string, path: string): ChannelsConfig {
  if (new TextEncoder().encode(text).byteLength > CHANNELS_CONFIG_MAX_BYTES) {
    throw new ChannelsConfigError(
      "channels_config_too_large",
      path,
      `${path} is larger than ${CHANNELS_CONFIG_MAX_BYTES} bytes`,
    );
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    throw new ChannelsConfigError("channels_config_invalid", path, `${path} is not valid YAML`, {
      cause: error,
    });
  }
  if (data === null || data === undefined) return defaultChannelsConfig();
  const parsed = channelsSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) =>
      `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`
    );
    throw new ChannelsConfigError(
      "channels_config_invalid",
      path,
      `${path} is invalid: ${issues.join("; ")}`,
    );
  }
  return parsed.data;
}

/**
 * Reads channels.yaml; a missing file is the default (no channel).
 *
 * @param path the file
 * @returns the validated config
 * @throws {ChannelsConfigError} when unreadable, too large or invalid
 */
export async function readChannelsConfig(path: string): Promise<ChannelsConfig> {
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(path);
    if (info.size > CHANNELS_CONFIG_MAX_BYTES) {
      throw new ChannelsConfigError(
        "channels_config_too_large",
        path,
        `${path} is larger than ${CHANNELS_CONFIG_MAX_BYTES} bytes`,
      );
    }
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof ChannelsConfigError) throw error;
    if (error instanceof Deno.errors.NotFound) return defaultChannelsConfig();
    throw new ChannelsConfigError("channels_config_unreadable", path, `Cannot read ${path}`, {
      cause: error,
    });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new ChannelsConfigError("channels_config_invalid", path, `${path} is not UTF-8`, {
      cause: error,
    });
  }
  return parseChannelsConfig(text, path);
}

/**
 * Validates `config` and replaces channels.yaml with it atomically, mode 0600.
 *
 * @param path the file
 * @param config the new contents
 * @throws {ChannelsConfigError} `channels_config_invalid` (nothing written) or
 *   `channels_config_unwritable`
 */
export async function writeChannelsConfig(path: string, config: ChannelsConfig): Promise<void> {
  const parsed = channelsSchema.safeParse(config);
  if (!parsed.success) {
    throw new ChannelsConfigError(
      "channels_config_invalid",
      path,
      `Refusing to write an invalid ${path}: ${
        parsed.error.issues.map((i) => i.path.join(".")).join(", ")
      }`,
    );
  }
  const bytes = new TextEncoder().encode(stringify(parsed.data));
  if (bytes.byteLength > CHANNELS_CONFIG_MAX_BYTES) {
    throw new ChannelsConfigError(
      "channels_config_too_large",
      path,
      `Refusing to write ${path} larger than ${CHANNELS_CONFIG_MAX_BYTES} bytes`,
    );
  }
  const tempPath = join(dirname(path), `.channels.yaml.${crypto.randomUUID()}.tmp`);
  try {
    const file = await Deno.open(tempPath, {
      write: true,
      createNew: true,
      mode: SECRET_FILE_MODE,
    });
    try {
      let written = 0;
      while (written < bytes.byteLength) written += await file.write(bytes.subarray(written));
      await file.sync();
    } finally {
      file.close();
    }
    // open()'s mode is filtered by the umask; the file holds the bot token, so set it exactly.
    if (Deno.build.os !== "windows") await Deno.chmod(tempPath, SECRET_FILE_MODE);
    await Deno.rename(tempPath, path);
  } catch (error) {
    await Deno.remove(tempPath).catch(() => {
      // The temp file may never have been created.
    });
    throw new ChannelsConfigError("channels_config_unwritable", path, `Cannot write ${path}`, {
      cause: error,
    });
  }
}

/**
 * The credentials channels.yaml holds, for the runtime's protected values: the bot token's
 * secret (after the colon; the bot id before it is public and shown in the settings), and
 * the proxy URL's user and password (and the whole URL when it carries them). Protecting
 * the secret protects every text that contains the whole token.
 *
 * @param config the channels config
 * @returns the secrets (possibly none)
 */
export function channelCredentials(config: ChannelsConfig): string[] {
  const telegram = config.telegram;
  if (telegram === undefined) return [];
  const secrets = [telegram.token.slice(telegram.token.indexOf(":") + 1)];
  if (telegram.proxy !== undefined) {
    const url = new URL(telegram.proxy);
    if (url.password !== "") secrets.push(decodeURIComponent(url.password), telegram.proxy);
    if (url.username !== "") secrets.push(decodeURIComponent(url.username));
  }
  return secrets;
}

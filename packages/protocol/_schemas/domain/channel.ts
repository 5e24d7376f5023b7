/**
 * Channels: the Telegram bot the owner talks to Daedalus through. What `channel.list`
 * shows and `channel.status_changed` announces. Never the token: `tokenSet` says whether
 * one is configured and `tokenHint` shows the bot id part (public: it is the bot's user id).
 *
 * @module
 */
import { z } from "zod";
import { Identifier, ThreadId, Timestamp } from "../ids.ts";
import { ProviderId } from "./provider.ts";
import { AgentId } from "./agent.ts";
import { docs } from "../docs.ts";

export const ChannelKind = z.enum(["telegram"]).register(docs, {
  description: "A channel kind; Telegram is the only one.",
});

export const ChannelState = z.enum(["disabled", "starting", "running", "failed", "stopped"])
  .register(docs, {
    description: "Where a channel is: disabled (not configured or switched off), starting " +
      "(checking the token), running (polling), failed (the token was refused: fixed only by " +
      "reconfiguring), stopped (the runtime is shutting down).",
  });

export const ChannelOwner = z.looseObject({
  userId: z.string(),
  username: z.string().nullable(),
  chatId: z.string(),
  threadId: ThreadId,
  boundAt: Timestamp,
}).register(docs, { description: "The Telegram user a bot is bound to, and its thread." });

export const ChannelOutboxFailure = z.looseObject({
  code: z.string(),
  at: Timestamp,
}).register(docs, { description: "The latest reply that could not be delivered, and why." });

export const ChannelStatus = z.looseObject({
  channel: ChannelKind,
  configured: z.boolean(),
  enabled: z.boolean(),
  state: ChannelState,
  /** Why it failed (e.g. `telegram_unauthorized`); null otherwise. */
  reasonCode: z.string().nullable(),
  /** The last error's text (never a credential); null when none. */
  lastError: z.string().nullable(),
  bot: z.looseObject({ id: z.string(), username: z.string() }).nullable(),
  owner: ChannelOwner.nullable(),
  tokenSet: z.boolean(),
  /** The token's bot-id prefix and a mask (`123456:…`); null without a token. */
  tokenHint: z.string().nullable(),
  proxySet: z.boolean(),
  apiBaseUrl: z.string().nullable(),
  defaultProviderId: ProviderId.nullable(),
  defaultModelId: Identifier.nullable(),
  /** The agent profile the channel's threads are bound to; null: the user's default. */
  defaultAgentId: AgentId.nullable(),
  /** Replies waiting for delivery. */
  pendingReplies: z.int().min(0),
  lastFailure: ChannelOutboxFailure.nullable(),
}).register(docs, { description: "One channel as `channel.list` shows it." });

export const ChannelStatusSummary = z.looseObject({
  channel: ChannelKind,
  state: ChannelState,
  reasonCode: z.string().nullable(),
  /** The bound owner's Telegram user id (a binding or reset changes it); null when unbound. */
  ownerUserId: z.string().nullable(),
}).register(docs, {
  description: "What `channel.status_changed` carries (on a state change, a binding or " +
    "its reset); `channel.list` has the rest.",
});

/**
 * `channel.*`: the Telegram channel (seed 000 §7 `channel-list/configure/test/
 * reset-binding`, here dotted). The configuration lives in channels.yaml; the token is
 * written, never read back.
 *
 * @module
 */
import { z } from "zod";
import { method } from "./_define.ts";
import { Identifier } from "../ids.ts";
import { ProviderId } from "../domain/provider.ts";
import { ChannelKind, ChannelStatus } from "../domain/channel.ts";
import { AgentId } from "../domain/agent.ts";

const HttpUrl = z.string().max(2_048).regex(/^https?:\/\/\S+$/, {
  error: "expected an http:// or https:// URL",
});

export const channelMethods = {
  "channel.list": method({
    description: "Lists the channels with their state, owner and delivery status",
    params: z.strictObject({}),
    result: z.looseObject({ channels: z.array(ChannelStatus) }),
  }),
  "channel.configure": method({
    description: "Writes a channel's configuration to channels.yaml and restarts it; " +
      "without `token` the configured one is kept (the PWA never reads it back). An " +
      "unknown `defaultAgentId` is refused (`agent_not_found`)",
    params: z.strictObject({
      channel: ChannelKind,
      enabled: z.boolean(),
      token: z.string().min(1).max(200).optional(),
      /** An HTTP(S) proxy; null removes it, absent keeps it. */
      proxy: HttpUrl.nullable().optional(),
      /** A self-hosted Bot API server; null or absent: Telegram's own. */
      apiBaseUrl: HttpUrl.nullable().optional(),
      defaultProviderId: ProviderId,
      defaultModelId: Identifier,
      /**
       * The agent profile the channel's new threads are bound to; null: the user's
       * default; absent keeps it. An unknown one is refused (`agent_not_found`).
       */
      defaultAgentId: AgentId.nullable().optional(),
    }),
    result: z.looseObject({ channel: ChannelStatus }),
  }),
  "channel.test": method({
    description: "Checks the token (getMe) and, when an owner is bound, sends them a test message",
    params: z.strictObject({ channel: ChannelKind }),
    result: z.looseObject({
      ok: z.boolean(),
      bot: z.looseObject({ id: z.string(), username: z.string() }).nullable(),
      sentToOwner: z.boolean(),
      /** Why the test failed (a reason code such as `telegram_unauthorized`); null when ok. */
      reasonCode: z.string().nullable(),
      message: z.string().nullable(),
    }),
  }),
  "channel.reset_binding": method({
    description: "Forgets a channel's owner; the next private /start binds anew",
    params: z.strictObject({ channel: ChannelKind }),
    result: z.looseObject({ reset: z.boolean(), channel: ChannelStatus }),
  }),
} as const;

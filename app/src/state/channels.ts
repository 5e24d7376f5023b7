/**
 * Settings → Channels' state: `channel.list` (with the models and agent profiles the form
 * offers), and the changes (`channel.configure`,
 * `channel.test`, `channel.reset_binding`). The token is written, never read back: the
 * form's token field starts empty and an empty field keeps the configured token. Every
 * function takes the RPC call as a parameter so tests run without a server.
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { ChannelStatus, ParamsOf, ResultOf } from "@daedalus/client";
import { type CallFailure, callFailure } from "./call_failure.ts";
import { liveCall, type RpcCall } from "./rpc_call.ts";

/** What the section shows. */
export interface ChannelsView {
  /** `loading` keeps the previous status on screen. */
  status: "idle" | "loading" | "ready" | "failed";
  /** The Telegram channel, once read. */
  telegram: ChannelStatus | null;
  /** The models a channel may use (`provider/model`), enabled ones only. */
  models: string[];
  /** The agent profiles the channel's threads may be bound to (`agent.list`). */
  agents: { id: string; name: string }[];
  /** A change or test waits for the runtime. */
  pending: boolean;
  /** The last failure, cleared by the next success. */
  error: CallFailure | null;
  /** The last `channel.test` result. */
  test: ResultOf<"channel.test"> | null;
}

/** The form as typed. */
export interface ChannelForm {
  /** Whether the bot is polled. */
  enabled: boolean;
  /** A new token; empty keeps the configured one. */
  token: string;
  /** A self-hosted Bot API server; empty: Telegram's own. */
  apiBaseUrl: string;
  /** An HTTP(S) proxy; empty: none. */
  proxy: string;
  /** `provider/model` for the channel's turns. */
  model: string;
  /** The agent profile of the channel's threads; empty: the user's default. */
  agentId: string;
}

/** The section's state. */
export const channelsView = signal<ChannelsView>({
  status: "idle",
  telegram: null,
  models: [],
  agents: [],
  pending: false,
  error: null,
  test: null,
});

/**
 * The form of a configured channel (the token field empty), or an empty one.
 *
 * @param status the channel, if read
 * @param models the models to default to
 * @returns the form
 */
export function channelForm(status: ChannelStatus | null, models: readonly string[]): ChannelForm {
  const configured = status?.defaultProviderId && status.defaultModelId
    ? `${status.defaultProviderId}/${status.defaultModelId}`
    : "";
  return {
    enabled: status?.configured ? status.enabled : true,
    token: "",
    apiBaseUrl: status?.apiBaseUrl ?? "",
    proxy: "",
    model: configured || models[0] || "",
    agentId: status?.defaultAgentId ?? "",
  };
}

/**
 * The `channel.configure` params of a form: blank token and proxy keep the configured ones,
 * a blank API URL means Telegram's own, a blank agent the user's default profile.
 *
 * @param form the form
 * @returns the params, or the field to fix
 */
export function configureParams(
  form: ChannelForm,
): { params: ParamsOf<"channel.configure"> } | { missing: "model" } {
  const model = form.model.trim();
  const slash = model.indexOf("/");
  if (slash <= 0 || slash === model.length - 1) return { missing: "model" };
  const token = form.token.trim();
  const proxy = form.proxy.trim();
  const apiBaseUrl = form.apiBaseUrl.trim();
  return {
    params: {
      channel: "telegram",
      enabled: form.enabled,
      ...(token ? { token } : {}),
      ...(proxy ? { proxy } : {}),
      apiBaseUrl: apiBaseUrl || null,
      defaultProviderId: model.slice(0, slash),
      defaultModelId: model.slice(slash + 1),
      defaultAgentId: form.agentId.trim() || null,
    },
  };
}

function change(part: Partial<ChannelsView>): void {
  channelsView.value = { ...channelsView.value, ...part };
}

/**
 * Reads the channel and the models.
 *
 * @param call the RPC call
 */
export async function loadChannels(call: RpcCall = liveCall): Promise<void> {
  change({ status: "loading" });
  try {
    const [{ channels }, { models }, { agents }] = await Promise.all([
      call("channel.list", {}),
      call("model.list", {}),
      call("agent.list", {}),
    ]);
    change({
      status: "ready",
      telegram: channels.find((channel) => channel.channel === "telegram") ?? null,
      models: models.filter((m) => m.enabled).map((m) => `${m.providerId}/${m.id}`),
      agents: agents.map(({ profile }) => ({ id: profile.id, name: profile.name })),
      error: null,
    });
  } catch (error) {
    change({ status: "failed", error: callFailure(error) });
  }
}

async function pendingCall(work: () => Promise<Partial<ChannelsView>>): Promise<boolean> {
  if (channelsView.value.pending) return false;
  change({ pending: true });
  try {
    change({ ...(await work()), pending: false, error: null });
    return true;
  } catch (error) {
    change({ pending: false, error: callFailure(error) });
    return false;
  }
}

/**
 * Saves the form.
 *
 * @param params the `channel.configure` params
 * @param call the RPC call
 * @returns whether it was saved
 */
export function saveChannel(
  params: ParamsOf<"channel.configure">,
  call: RpcCall = liveCall,
): Promise<boolean> {
  return pendingCall(async () => ({
    telegram: (await call("channel.configure", params)).channel,
    test: null,
  }));
}

/**
 * Tests the channel (getMe, and a message to the owner when bound).
 *
 * @param call the RPC call
 * @returns whether the call went through (the test itself may have failed)
 */
export function testChannel(call: RpcCall = liveCall): Promise<boolean> {
  return pendingCall(async () => ({ test: await call("channel.test", { channel: "telegram" }) }));
}

/**
 * Forgets the owner; the next /start binds anew.
 *
 * @param call the RPC call
 * @returns whether it was reset
 */
export function resetChannelBinding(call: RpcCall = liveCall): Promise<boolean> {
  return pendingCall(async () => ({
    telegram: (await call("channel.reset_binding", { channel: "telegram" })).channel,
  }));
}

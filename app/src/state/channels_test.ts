import assert from "node:assert/strict";
import type { ChannelStatus } from "@daedalus/client";
import { channelForm, configureParams } from "./channels.ts";

const STATUS = {
  channel: "telegram",
  configured: true,
  enabled: false,
  state: "disabled",
  reasonCode: null,
  lastError: null,
  bot: null,
  owner: null,
  tokenSet: true,
  tokenHint: "1:…",
  proxySet: false,
  apiBaseUrl: "http://127.0.0.1:9",
  defaultProviderId: "deepseek",
  defaultModelId: "deepseek-chat",
  defaultAgentId: "plan",
  pendingReplies: 0,
  lastFailure: null,
} as ChannelStatus;

Deno.test("channelForm: a configured channel fills the form, never the token", () => {
  assert.deepEqual(channelForm(STATUS, ["x/y"]), {
    enabled: false,
    token: "",
    apiBaseUrl: "http://127.0.0.1:9",
    proxy: "",
    model: "deepseek/deepseek-chat",
    agentId: "plan",
  });
  assert.equal(
    channelForm(null, ["x/y"]).model,
    "x/y",
    "an unconfigured channel takes the first model",
  );
  assert.equal(channelForm(null, []).enabled, true);
  assert.equal(channelForm(null, []).agentId, "", "no profile chosen: the default");
});

Deno.test("configureParams: blank token and proxy are left out; a blank URL is Telegram's own", () => {
  const form = {
    enabled: true,
    token: " ",
    apiBaseUrl: "",
    proxy: "",
    model: "p/m/x",
    agentId: "",
  };
  assert.deepEqual(configureParams(form), {
    params: {
      channel: "telegram",
      enabled: true,
      apiBaseUrl: null,
      defaultProviderId: "p",
      defaultModelId: "m/x",
      defaultAgentId: null,
    },
  });
  const full = configureParams({ ...form, token: "1:abc", proxy: "http://proxy:1" });
  assert.ok(
    "params" in full && full.params.token === "1:abc" && full.params.proxy === "http://proxy:1",
  );
  const bound = configureParams({ ...form, agentId: "plan" });
  assert.ok("params" in bound && bound.params.defaultAgentId === "plan", "the agent is sent");
});

Deno.test("configureParams: a model without provider/model is refused", () => {
  for (const model of ["", "nomodel", "/m", "p/"]) {
    assert.deepEqual(
      configureParams({ enabled: true, token: "", apiBaseUrl: "", proxy: "", model, agentId: "" }),
      {
        missing: "model",
      },
      model,
    );
  }
});

/**
 * The channel service's agent profile (issue 21): `channel.configure` checks
 * `defaultAgentId` (an unknown one is refused with `agent_not_found` and nothing is
 * written; null clears it, absent keeps it), `channel.list` shows it, and the threads the
 * Telegram channel creates — on `/start` and `/new` — are bound to it, or to the default
 * profile once it was removed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { RpcError } from "@daedalus/protocol";
import { readChannelsConfig } from "@daedalus/storage";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider } from "../providers/scripted.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { startFakeTelegram } from "./telegram/_test_fake_bot_api.ts";

const TOKEN = "777002:AAF_channel-service-test-token-0000";
const OWNER = 6001;
const MODEL = { defaultProviderId: "scripted", defaultModelId: "scripted-model" };

Deno.test("channel.configure checks defaultAgentId; the channel's threads are bound to it", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-channel-" });
  await using fake = startFakeTelegram({ token: TOKEN });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    providers: [createScriptedProvider({ script: () => ({ text: ["ok"] }) })],
    threadTitles: false,
    memoryRefinement: false,
  });
  const call = dispatchOn(core);
  const configure = (extra: Record<string, unknown>) =>
    call("channel.configure", {
      channel: "telegram",
      enabled: true,
      token: TOKEN,
      apiBaseUrl: fake.url,
      ...MODEL,
      ...extra,
    });
  const boundAgent = async () => {
    const { channels } = await call("channel.list", {});
    const threadId = channels[0].owner?.threadId;
    assert.ok(threadId, "no thread is bound to the owner");
    return (await call("thread.get", { threadId })).thread.agentId;
  };
  try {
    await assert.rejects(
      configure({ defaultAgentId: "nope" }),
      (error: unknown) =>
        error instanceof RpcError && error.reasonCode === "agent_not_found" &&
        (error.data as { field?: string }).field === "defaultAgentId" &&
        error.message.includes('"nope"'),
    );
    assert.equal(
      (await readChannelsConfig(`${home}/channels.yaml`)).telegram,
      undefined,
      "a refused configuration wrote channels.yaml",
    );

    await call("agent.save", {
      profile: {
        id: "phone",
        name: "Phone",
        permission: "read_only",
        memory: { recall: false, memoryFile: false },
      },
    });
    const configured = await configure({ defaultAgentId: "phone" });
    assert.equal(configured.channel.defaultAgentId, "phone");
    assert.equal((await call("channel.list", {})).channels[0].defaultAgentId, "phone");
    assert.equal(
      (await readChannelsConfig(`${home}/channels.yaml`)).telegram?.defaultAgentId,
      "phone",
    );

    fake.sendText(OWNER, "/start");
    await fake.waitFor(
      () => fake.sent.some((m) => m.text.startsWith("Connected")),
      20_000,
      "the binding reply",
    );
    assert.equal(await boundAgent(), "phone", "the /start thread is not bound to the profile");

    // Absent keeps it (a client that does not know the field changes nothing).
    const kept = await configure({});
    assert.equal(kept.channel.defaultAgentId, "phone");

    // Removed since: /new still makes a thread, bound to the default profile.
    await call("agent.remove", { agentId: "phone" });
    const sentBefore = fake.sent.length;
    fake.sendText(OWNER, "/new");
    await fake.waitFor(
      () => fake.sent.slice(sentBefore).some((m) => m.text.startsWith("Started a new")),
      20_000,
      "the /new reply",
    );
    assert.equal(await boundAgent(), "build", "a removed profile's channel thread is not default");

    const cleared = await configure({ defaultAgentId: null });
    assert.equal(cleared.channel.defaultAgentId, null);
    assert.equal(
      (await readChannelsConfig(`${home}/channels.yaml`)).telegram?.defaultAgentId,
      undefined,
    );
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});

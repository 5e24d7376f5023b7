/**
 * The Telegram channel end to end, with the shipped flags: the scripted runtime (a real
 * child process) polls a strict fake Bot API on 127.0.0.1. The owner binds on /start and a
 * second user is refused; a message runs a turn and its answer arrives; a 9,000-unit answer
 * with emoji arrives as 3 well-formed pieces; /stop cancels; a 429 with retry_after is
 * waited out; a refused token marks the channel failed; the channel's `defaultAgentId`
 * binds its thread to that profile; and the token appears nowhere but channels.yaml.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readPermissions, writeChannelsConfig, writePermissions } from "@daedalus/storage";
import { makeTempHome, startFixture, type TempHome } from "./_harness.ts";
import { openClient } from "./_clients.ts";
import {
  type FakeTelegram,
  startFakeTelegram,
} from "../../packages/runtime/channels/telegram/_test_fake_bot_api.ts";

const TOKEN = "777001:AAF_channel-e2e-secret-token-000000";
const OWNER = 5001;
const STRANGER = 5002;

async function configure(
  home: TempHome,
  fake: FakeTelegram,
  token = TOKEN,
  extra: { defaultAgentId?: string } = {},
): Promise<void> {
  await writeChannelsConfig(`${home.home}/channels.yaml`, {
    version: 1,
    telegram: {
      enabled: true,
      token,
      apiBaseUrl: fake.url,
      defaultProviderId: "scripted",
      defaultModelId: "scripted-model",
      ...extra,
    },
  });
}

const textsTo = (fake: FakeTelegram, chat: number) =>
  fake.sent.filter((m) => m.chatId === String(chat)).map((m) => m.text);

async function bindOwner(fake: FakeTelegram): Promise<void> {
  fake.sendText(OWNER, "/start", { username: "owner" });
  await fake.waitFor(
    () => textsTo(fake, OWNER).some((t) => t.startsWith("Connected")),
    20_000,
    "the binding reply",
  );
}

Deno.test("spawned: /start binds the owner, others are refused, a message is answered, the token stays in channels.yaml", async () => {
  await using home = await makeTempHome();
  await using fake = startFakeTelegram({ token: TOKEN });
  await configure(home, fake);
  await using server = await startFixture(home);
  await bindOwner(fake);
  fake.sendText(STRANGER, "/start");
  fake.sendText(STRANGER, "run something for me");
  await fake.waitFor(() => textsTo(fake, STRANGER).length === 2, 20_000, "two refusals");
  assert.ok(
    textsTo(fake, STRANGER).every((t) => t.includes("only answers its owner")),
    textsTo(fake, STRANGER).join(" | "),
  );
  fake.sendText(OWNER, "hello from the phone");
  await fake.waitFor(
    () => textsTo(fake, OWNER).includes("Answer to: hello from the phone"),
    20_000,
    "the answer",
  );
  assert.ok(
    fake.requests.some((r) => r.method === "sendChatAction" && r.params.action === "typing"),
    "typing is shown during the Run",
  );
  // An edited message and a sticker are skipped and acknowledged: never offered again.
  fake.pushUpdate({
    edited_message: { chat: { id: OWNER, type: "private" }, from: { id: OWNER }, text: "x" },
  });
  fake.pushUpdate({
    message: {
      chat: { id: OWNER, type: "private" },
      from: { id: OWNER, is_bot: false },
      sticker: {},
    },
  });
  fake.sendText(OWNER, "after the odd ones");
  await fake.waitFor(
    () => textsTo(fake, OWNER).includes("Answer to: after the odd ones"),
    20_000,
    "the later answer",
  );

  await using recording = await openClient(server.url, await server.token());
  const { channels } = await recording.client.call("channel.list", {});
  assert.equal(channels[0].state, "running");
  assert.equal(channels[0].owner?.userId, String(OWNER));
  assert.equal(channels[0].owner?.username, "owner");
  assert.equal(channels[0].tokenHint, "777001:…");
  const runs =
    (await recording.client.call("turn.list", { threadId: channels[0].owner!.threadId })).turns
      .length;
  assert.equal(runs, 2, "only the owner's two messages ran (no refusal, no skipped update)");
  // Under the default preset a tool call waits for an approval, given in the app.
  fake.sendText(OWNER, "tool needs approval");
  await fake.waitFor(
    () => textsTo(fake, OWNER).some((t) => t.includes("waits for your approval")),
    20_000,
    "the approval notice",
  );
  const listed = JSON.stringify(channels);
  const secret = TOKEN.split(":")[1];
  assert.ok(!listed.includes(secret), "channel.list must not carry the token");
  const polls = fake.requests.filter((r) => r.method === "getUpdates").map((r) =>
    Number(r.params.offset)
  );
  assert.ok(
    polls.every((offset, i) => i === 0 || offset >= polls[i - 1]),
    "the offset never moves back",
  );

  server.child.kill("SIGTERM");
  await server.child.exit();
  for await (const entry of Deno.readDir(home.home)) {
    if (!entry.isFile || entry.name === "channels.yaml") continue;
    const bytes = await Deno.readFile(`${home.home}/${entry.name}`);
    assert.ok(
      !new TextDecoder().decode(bytes).includes(secret),
      `${entry.name} must not contain the token`,
    );
  }
  assert.ok(
    !server.child.describe().includes(secret),
    "the runtime's output must not contain the token",
  );
});

Deno.test("spawned: a 9,000-unit answer arrives in 3 pieces; /stop cancels; 429 retry_after is waited", async () => {
  await using home = await makeTempHome();
  await using fake = startFakeTelegram({ token: TOKEN });
  await configure(home, fake);
  await using _server = await startFixture(home);
  await bindOwner(fake);
  const before = fake.sent.length;
  fake.sendText(OWNER, "emoji answer");
  await fake.waitFor(() => fake.sent.length >= before + 3, 20_000, "three pieces");
  const pieces = fake.sent.slice(before).map((m) => m.text);
  assert.equal(pieces.length, 3, `got ${pieces.length} pieces`);
  for (const piece of pieces) {
    assert.ok(
      piece.length <= 4096 && piece.isWellFormed(),
      `a piece of ${piece.length} units, well-formed: ${piece.isWellFormed()}`,
    );
  }
  assert.equal(pieces.join(" ").replace(/\s+/g, " "), "Daedalus 😀 flies ".repeat(500).trim());

  fake.sendText(OWNER, "slow answer please");
  await fake.waitFor(
    () => fake.requests.filter((r) => r.method === "sendChatAction").length > 1,
    20_000,
    "typing",
  );
  fake.sendText(OWNER, "/stop");
  await fake.waitFor(
    () => textsTo(fake, OWNER).at(-1) === "Stopped.",
    20_000,
    "the cancelled Run's reply",
  );

  fake.rateLimitSends(1, 2);
  fake.sendText(OWNER, "rate limited");
  await fake.waitFor(
    () => textsTo(fake, OWNER).includes("Answer to: rate limited"),
    20_000,
    "the answer after the 429",
  );
  const sends = fake.requests.filter((r) => r.method === "sendMessage");
  const refused = sends.findLastIndex((r) => r.params.text === "Answer to: rate limited") - 1;
  const gap = sends[refused + 1].at - sends[refused].at;
  assert.ok(gap >= 1_900, `the retry came ${gap} ms after the 429; retry_after asked 2 s`);
});

Deno.test("spawned: SIGKILL after the Run settled, before delivery: the reply is delivered once after the restart", async () => {
  await using home = await makeTempHome();
  await using fake = startFakeTelegram({ token: TOKEN });
  await configure(home, fake);
  {
    await using server = await startFixture(home);
    await bindOwner(fake);
    fake.holdSends(true);
    fake.sendText(OWNER, "deliver me once");
    await fake.waitFor(
      () =>
        fake.requests.some((r) =>
          r.method === "sendMessage" && r.params.text === "Answer to: deliver me once"
        ),
      20_000,
      "the reply's send to be in flight",
    );
    server.child.kill("SIGKILL");
    await server.child.exit();
    fake.holdSends(false);
  }
  assert.deepEqual(
    textsTo(fake, OWNER).filter((t) => t.includes("deliver me once")),
    [],
    "nothing delivered before the kill",
  );
  await using _server = await startFixture(home);
  await fake.waitFor(
    () => textsTo(fake, OWNER).includes("Answer to: deliver me once"),
    20_000,
    "the reply after the restart",
  );
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  assert.equal(
    textsTo(fake, OWNER).filter((t) => t === "Answer to: deliver me once").length,
    1,
    "delivered exactly once",
  );
});

Deno.test("spawned: a refused token marks the channel failed and stops polling", async () => {
  await using home = await makeTempHome();
  await using fake = startFakeTelegram({ token: TOKEN });
  await configure(home, fake, "777001:AAF_not-the-right-token-00000000");
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  await recording.waitForEvent(
    "the channel to fail",
    (event) =>
      event.type === "channel.status_changed" &&
      (event.payload as { channel: { state: string } }).channel.state === "failed",
  );
  const { channels } = await recording.client.call("channel.list", {});
  assert.deepEqual([channels[0].state, channels[0].reasonCode], [
    "failed",
    "telegram_unauthorized",
  ]);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  assert.equal(
    fake.requests.filter((r) => r.method === "getUpdates").length,
    0,
    "no polling with a refused token",
  );
  const test = await recording.client.call("channel.test", { channel: "telegram" });
  assert.deepEqual([test.ok, test.reasonCode], [false, "telegram_unauthorized"]);
  const configured = await recording.client.call("channel.configure", {
    channel: "telegram",
    enabled: true,
    token: TOKEN,
    apiBaseUrl: fake.url,
    defaultProviderId: "scripted",
    defaultModelId: "scripted-model",
  });
  assert.equal(configured.channel.tokenSet, true);
  await recording.waitForEvent(
    "the channel to run",
    (event) =>
      event.type === "channel.status_changed" &&
      (event.payload as { channel: { state: string } }).channel.state === "running",
  );
  await bindOwner(fake);
  assert.equal(
    (await recording.client.call("channel.test", { channel: "telegram" })).sentToOwner,
    true,
  );
  const reset = await recording.client.call("channel.reset_binding", { channel: "telegram" });
  assert.deepEqual([reset.reset, reset.channel.owner], [true, null]);
});

Deno.test("spawned: /model lists and switches, /status reports, /new binds a fresh thread, steering reaches the Run", async () => {
  await using home = await makeTempHome();
  await using fake = startFakeTelegram({ token: TOKEN });
  await configure(home, fake);
  // Telegram turns take config.yaml's preset; the echo tool must run without an approval.
  const permissions = await readPermissions(`${home.home}/config.yaml`);
  await writePermissions(`${home.home}/config.yaml`, { ...permissions, preset: "full_access" });
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  // Lists the fixture's scripted model in model.list (as tests/browser/_browser.ts does).
  await recording.client.call("provider.configure", {
    kind: "custom",
    providerId: "scripted",
    displayName: "Scripted",
    baseUrl: "http://127.0.0.1:9/v1",
    models: [{ id: "scripted-model", displayName: "Scripted model" }],
  });
  await bindOwner(fake);
  const reply = async (text: string, what: string) => {
    const before = textsTo(fake, OWNER).length;
    fake.sendText(OWNER, text);
    await fake.waitFor(() => textsTo(fake, OWNER).length > before, 20_000, what);
    return textsTo(fake, OWNER).at(-1)!;
  };
  assert.match(await reply("/model", "the model list"), /• scripted\/scripted-model/);
  assert.match(await reply("/model nope/none", "a refusal"), /No enabled model nope\/none/);
  assert.equal(
    await reply("/model scripted/scripted-model", "the switch"),
    "New turns use scripted/scripted-model.",
  );
  assert.match(await reply("/status", "the status"), /^Idle\. Model: scripted\/scripted-model\./);
  const first = (await recording.client.call("channel.list", {})).channels[0].owner!.threadId;
  assert.equal(await reply("/new", "the new thread"), "Started a new conversation.");
  const second = (await recording.client.call("channel.list", {})).channels[0].owner!.threadId;
  assert.notEqual(second, first, "/new binds another thread");

  fake.sendText(OWNER, "slow tool please");
  await fake.waitFor(
    () => fake.requests.filter((r) => r.method === "sendChatAction").length > 0,
    20_000,
    "typing",
  );
  fake.sendText(OWNER, "steer: also this");
  await fake.waitFor(
    () => textsTo(fake, OWNER).some((t) => t.startsWith("Tool said:")),
    30_000,
    "the steered answer",
  );
  assert.match(
    textsTo(fake, OWNER).find((t) => t.startsWith("Tool said:"))!,
    /\(steer: also this\)/,
    "the steer reached the Run",
  );
  const turns = (await recording.client.call("turn.list", { threadId: second })).turns;
  assert.equal(turns.length, 1, "a steer is not a turn of its own");
});

Deno.test("spawned: defaultAgentId binds the channel's thread to that profile, and its Runs obey it", async () => {
  await using home = await makeTempHome();
  await using fake = startFakeTelegram({ token: TOKEN });
  await configure(home, fake, TOKEN, { defaultAgentId: "plan" });
  // A preset that would allow the write: only the Plan profile stands in its way.
  const permissions = await readPermissions(`${home.home}/config.yaml`);
  await writePermissions(`${home.home}/config.yaml`, { ...permissions, preset: "full_access" });
  await using server = await startFixture(home);
  await using recording = await openClient(server.url, await server.token());
  await bindOwner(fake);
  const { channels } = await recording.client.call("channel.list", {});
  assert.equal(channels[0].defaultAgentId, "plan");
  const threadId = channels[0].owner!.threadId;
  const { thread } = await recording.client.call("thread.get", { threadId });
  assert.equal(thread.agentId, "plan", "the channel's thread is not bound to plan");

  fake.sendText(OWNER, 'calls: write {"path":"made.txt","content":"x"}');
  await fake.waitFor(
    () => textsTo(fake, OWNER).length >= 2,
    20_000,
    "the answer to the write",
  );
  const { turns } = await recording.client.call("turn.list", { threadId });
  const run = turns.at(-1)!.runs.at(-1)!;
  assert.equal(run.status, "completed", JSON.stringify(run));
  const result = run.items.find((item) => item.kind === "tool_result");
  assert.match(result?.content ?? "", /Unknown tool/, "Plan's Run was offered write");
  const root = thread.workspace!.rootUri!;
  assert.ok((await Deno.stat(root)).isDirectory, `the thread's workspace ${root} is a folder`);
  await assert.rejects(
    Deno.stat(`${root}/made.txt`),
    Deno.errors.NotFound,
    "the Plan thread wrote a file",
  );
});

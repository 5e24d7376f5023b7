import assert from "node:assert/strict";
import { ChannelStore } from "@daedalus/storage";
import { startFakeTelegram } from "./_test_fake_bot_api.ts";
import { TelegramBotApi } from "./bot_api.ts";
import { OutboxSender } from "./outbox_sender.ts";

const TOKEN = "4343:AAF_outbox-sender-test-token-0000";
const entry = (chatId: string, runId: string | null, text: string) => ({
  channelId: "telegram",
  accountId: "4343",
  chatId,
  runId,
  text,
});

Deno.test("outbox: pieces are delivered in order; a refused send is recorded and not retried", async () => {
  await using fake = startFakeTelegram({ token: TOKEN });
  const store = ChannelStore.open(":memory:");
  const lines: string[] = [];
  const sender = new OutboxSender({
    store,
    api: new TelegramBotApi({ token: TOKEN, apiBaseUrl: fake.url }),
    channelId: "telegram",
    accountId: "4343",
    log: (line) => lines.push(line),
  });
  try {
    fake.sendText(1, "hi");
    fake.sendText(2, "hi");
    fake.blockChat(2);
    store.enqueue(entry("1", "run_a", `${"a".repeat(4_000)}\n${"b".repeat(100)}`));
    store.enqueue(entry("2", "run_b", "to a blocked chat"));
    store.enqueue(entry("99", "run_c", "to an unknown chat"));
    sender.start();
    await fake.waitFor(
      () =>
        store.outbox("telegram", "4343").every((row) =>
          row.status === "sent" || row.status === "failed"
        ),
      10_000,
      "all rows settled",
    );
    const rows = Object.fromEntries(
      store.outbox("telegram", "4343").map((row) => [row.runId, row]),
    );
    assert.deepEqual([rows.run_a.status, rows.run_a.partsSent], ["sent", 2]);
    assert.deepEqual(fake.sent.filter((m) => m.chatId === "1").map((m) => m.text.length), [
      4_000,
      100,
    ]);
    assert.deepEqual([rows.run_b.status, rows.run_b.lastErrorCode, rows.run_b.attempts], [
      "failed",
      "telegram_forbidden",
      1,
    ]);
    assert.deepEqual([rows.run_c.status, rows.run_c.lastErrorCode], [
      "failed",
      "telegram_bad_request",
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const sends = fake.requests.filter((r) =>
      r.method === "sendMessage" && r.params.chat_id !== "1"
    );
    assert.equal(sends.length, 2, "a 400 or 403 must not be retried");
    assert.ok(lines.some((line) => line.includes("blocked by the user")), lines.join("\n"));
  } finally {
    await sender.stop();
    store.close();
  }
});

Deno.test("outbox: a long retry_after is scheduled on the row, then delivered", async () => {
  await using fake = startFakeTelegram({ token: TOKEN });
  const store = ChannelStore.open(":memory:");
  const sender = new OutboxSender({
    store,
    api: new TelegramBotApi({ token: TOKEN, apiBaseUrl: fake.url, retries: 0 }),
    channelId: "telegram",
    accountId: "4343",
    log: () => {},
  });
  try {
    fake.sendText(1, "hi");
    fake.rateLimitSends(1, 1);
    store.enqueue(entry("1", "run_a", "later"));
    sender.start();
    await fake.waitFor(
      () => store.outbox("telegram", "4343")[0].lastErrorCode === "telegram_rate_limited",
      5_000,
      "the 429 recorded",
    );
    const row = store.outbox("telegram", "4343")[0];
    assert.equal(row.status, "pending");
    assert.ok(row.nextAttemptAt !== null, "the retry is scheduled");
    await fake.waitFor(
      () => store.outbox("telegram", "4343")[0].status === "sent",
      10_000,
      "delivered after retry_after",
    );
    const sends = fake.requests.filter((r) => r.method === "sendMessage");
    assert.ok(
      sends[1].at - sends[0].at >= 950,
      `retried after ${sends[1].at - sends[0].at} ms; retry_after was 1 s`,
    );
  } finally {
    await sender.stop();
    store.close();
  }
});

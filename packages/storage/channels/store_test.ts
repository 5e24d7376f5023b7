import { assert, assertEquals, assertThrows } from "./_test_assert.ts";
import { DatabaseSync } from "node:sqlite";
import { ChannelsDatabaseError } from "./errors.ts";
import { ChannelStore } from "./store.ts";

const BINDING = {
  channelId: "telegram",
  accountId: "42",
  chatId: "1001",
  threadId: "thread_a",
  branchId: "branch_a",
  ownerUserId: "1001",
  ownerUsername: "owner",
};

Deno.test("channels.db: the first binding wins; rebind and reset", () => {
  const store = ChannelStore.open(":memory:");
  try {
    assertEquals(store.binding("telegram", "42"), null);
    assertEquals(store.bind(BINDING).chatId, "1001");
    const second = store.bind({ ...BINDING, chatId: "2002", threadId: "thread_b" });
    assertEquals(second.chatId, "1001", "a second /start must not take over the binding");
    assert(store.rebindThread("telegram", "42", "thread_c", "branch_c"));
    assertEquals(store.binding("telegram", "42")?.threadId, "thread_c");
    assert(store.resetBinding("telegram", "42"));
    assertEquals(store.binding("telegram", "42"), null);
    assertEquals(store.resetBinding("telegram", "42"), false);
  } finally {
    store.close();
  }
});

Deno.test("channels.db: the cursor only moves forward and refuses bad values", () => {
  const store = ChannelStore.open(":memory:");
  try {
    assertEquals(store.cursor("telegram", "42"), 0);
    store.advanceCursor("telegram", "42", 10);
    store.advanceCursor("telegram", "42", 5);
    assertEquals(store.cursor("telegram", "42"), 10, "an older acknowledgement must not rewind");
    assertThrows(() => store.advanceCursor("telegram", "42", -1), RangeError);
  } finally {
    store.close();
  }
});

Deno.test("channels.db: a Run's reply is enqueued once; delivery states are recorded", () => {
  let now = new Date("2026-01-01T00:00:00Z");
  const store = ChannelStore.open(":memory:", { now: () => now });
  try {
    const entry = {
      channelId: "telegram",
      accountId: "42",
      chatId: "1001",
      runId: "run_1",
      text: "hi",
    };
    assert(store.enqueue(entry));
    assertEquals(
      store.enqueue({ ...entry, text: "again" }),
      false,
      "the unique index must refuse a second reply",
    );
    assert(store.enqueue({ ...entry, runId: null }));
    assert(store.enqueue({ ...entry, runId: null }), "messages without a Run are not deduplicated");
    assert(store.hasReply("telegram", "42", "run_1"));
    const [first, second] = store.due("telegram", "42");
    assertEquals(first.text, "hi");
    store.markSending(first.id);
    store.markPartSent(first.id, 1, 77);
    store.markRetry(first.id, "telegram_rate_limited", new Date("2026-01-01T00:00:05Z"));
    assertEquals(store.due("telegram", "42").map((row) => row.id).includes(first.id), false);
    now = new Date("2026-01-01T00:00:06Z");
    const again = store.due("telegram", "42").find((row) => row.id === first.id)!;
    assertEquals([again.attempts, again.partsSent, again.telegramMessageId, again.lastErrorCode], [
      1,
      1,
      77,
      "telegram_rate_limited",
    ]);
    store.markSent(first.id);
    store.markFailed(second.id, "telegram_chat_not_found");
    assertEquals(store.outboxRow(first.id)?.status, "sent");
    assertEquals(store.outboxRow(second.id)?.status, "failed");
    assertEquals(store.due("telegram", "42").length, 1);
  } finally {
    store.close();
  }
});

Deno.test("channels.db: a file in WAL mode survives reopening; another schema is refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/channels.db`;
    const store = ChannelStore.open(path);
    store.advanceCursor("telegram", "42", 3);
    store.close();
    const reopened = ChannelStore.open(path);
    assertEquals(reopened.cursor("telegram", "42"), 3);
    reopened.close();
    const raw = new DatabaseSync(path);
    assertEquals(raw.prepare("PRAGMA journal_mode").get()?.journal_mode, "wal");
    raw.exec("PRAGMA user_version = 2");
    raw.close();
    const error = assertThrows(() => ChannelStore.open(path), ChannelsDatabaseError);
    assertEquals(error.code, "channels_db_incompatible");
    assert(error.message.startsWith("channels database schema is incompatible; reset required"));
    const other = `${dir}/other.db`;
    const foreign = new DatabaseSync(other);
    foreign.exec("CREATE TABLE t (x)");
    foreign.close();
    assertEquals(
      assertThrows(() => ChannelStore.open(other), ChannelsDatabaseError).code,
      "channels_db_incompatible",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import assert from "node:assert/strict";
import { readCommand, readUpdate } from "./updates.ts";

const from = { id: 7, is_bot: false, first_name: "A", username: "alice" };
const chat = { id: 7, type: "private" };

const SKIPS: [string, Record<string, unknown>, RegExp][] = [
  ["an edited message", { edited_message: { chat, from, text: "x" } }, /edited_message/],
  [
    "a channel post",
    { channel_post: { chat: { id: -1, type: "channel" }, text: "x" } },
    /channel_post/,
  ],
  ["a group message", { message: { chat: { id: -5, type: "group" }, from, text: "x" } }, /group/],
  ["a sticker", { message: { chat, from, sticker: { file_id: "f" } } }, /without text/],
  ["a bot's message", { message: { chat, from: { ...from, is_bot: true }, text: "x" } }, /bot/],
  ["a message without a sender", { message: { chat, text: "x" } }, /sender/],
  ["a non-object message", { message: "hi" }, /malformed/],
  ["fractional ids", { message: { chat: { id: 1.5, type: "private" }, from, text: "x" } }, /ids/],
];

for (const [name, body, reason] of SKIPS) {
  Deno.test(`readUpdate: skips ${name}`, () => {
    const read = readUpdate({ update_id: 1, ...body });
    assert.equal(read.kind, "skip");
    assert.match((read as { reason: string }).reason, reason);
  });
}

Deno.test("readUpdate: a private text message", () => {
  assert.deepEqual(readUpdate({ update_id: 3, message: { chat, from, text: "hi" } }), {
    kind: "text",
    updateId: 3,
    chatId: "7",
    userId: "7",
    username: "alice",
    text: "hi",
  });
});

const COMMANDS: [string, ReturnType<typeof readCommand>][] = [
  ["/start", { name: "start", argument: "" }],
  ["/model@dd_bot deepseek/chat", { name: "model", argument: "deepseek/chat" }],
  ["  /STOP  ", { name: "stop", argument: "" }],
  ["hello /start", null],
  ["/", null],
];

for (const [text, expected] of COMMANDS) {
  Deno.test(`readCommand: ${JSON.stringify(text)}`, () =>
    assert.deepEqual(readCommand(text), expected));
}

import assert from "node:assert/strict";
import { difyTurnContent, parseDifyChatRequest, splitDifyTurnContent } from "./dify_request.ts";
import { DIFY_INPUT_VALUE_MAX_CHARS, DIFY_INPUTS_MAX_COUNT } from "./limits.ts";
import { isUuid, threadIdOfConversation, uuidOf } from "./conversation_ids.ts";

const UUID = "0123abcd-4567-89ab-cdef-0123456789ab";
/** What dify-client 2.3.2 sends (WIRE.md §1). */
const CLIENT_BODY = {
  inputs: {},
  query: "what time is it?",
  user: "abc-123",
  response_mode: "streaming",
  files: null,
};

Deno.test("Dify request: dify-client's body is accepted, with Dify's defaults", () => {
  assert.deepEqual(parseDifyChatRequest(CLIENT_BODY), {
    ok: true,
    request: {
      query: "what time is it?",
      inputs: {},
      user: "abc-123",
      responseMode: "streaming",
      conversationId: null,
      files: [],
    },
  });
  const minimal = parseDifyChatRequest({ query: "q", user: "u", conversation_id: "" });
  assert.ok(minimal.ok);
  assert.equal(minimal.request.responseMode, "blocking", "Dify's default mode is blocking");
  assert.equal(minimal.request.conversationId, null, "an empty conversation_id is a new one");
  const continued = parseDifyChatRequest({ ...CLIENT_BODY, conversation_id: UUID, extra: 1 });
  assert.ok(continued.ok, "an unknown field was refused");
  assert.equal(continued.request.conversationId, UUID);
  const files = parseDifyChatRequest({
    ...CLIENT_BODY,
    files: [{ type: "image", transfer_method: "remote_url", url: "https://x.test/a.png" }],
  });
  assert.ok(files.ok);
  assert.equal(files.request.files.length, 1);
});

Deno.test("Dify request: bad bodies are 400 invalid_param with a message that says why", () => {
  const cases: [string, unknown, RegExp][] = [
    ["no query", { user: "u" }, /^query is required$/],
    ["an empty query", { query: "", user: "u" }, /^query is required$/],
    ["no user", { query: "q" }, /^Arg user must be provided\.$/],
    ["a non-UUID conversation", { query: "q", user: "u", conversation_id: "abc" }, /UUID/],
    ["an unknown mode", { query: "q", user: "u", response_mode: "fast" }, /^response_mode: /],
    ["inputs not an object", { query: "q", user: "u", inputs: [1] }, /^inputs: /],
    [
      "an input that is an object",
      { query: "q", user: "u", inputs: { a: { b: 1 } } },
      /^inputs\.a: .*string or a number/,
    ],
    ["an input that is a list", { query: "q", user: "u", inputs: { a: ["x"] } }, /^inputs\.a: /],
    ["an input that is a boolean", { query: "q", user: "u", inputs: { a: true } }, /^inputs\.a: /],
    [
      "an input value too long",
      { query: "q", user: "u", inputs: { a: "x".repeat(DIFY_INPUT_VALUE_MAX_CHARS + 1) } },
      /^inputs\.a: /,
    ],
    [
      "too many inputs",
      {
        query: "q",
        user: "u",
        inputs: Object.fromEntries(
          Array.from({ length: DIFY_INPUTS_MAX_COUNT + 1 }, (_, i) => [`v${i}`, i]),
        ),
      },
      /^inputs: at most/,
    ],
    [
      "a file without its url",
      { query: "q", user: "u", files: [{ type: "image", transfer_method: "remote_url" }] },
      /^files\.0/,
    ],
    ["not an object", "hello", /^body: /],
    ["null", null, /^body: /],
  ];
  for (const [what, body, message] of cases) {
    const parsed = parseDifyChatRequest(body);
    assert.ok(!parsed.ok, `${what} was accepted`);
    assert.equal(parsed.error.code, "invalid_param", what);
    assert.equal(parsed.error.status, 400, what);
    assert.match(parsed.error.message, message, what);
  }
});

Deno.test("conversation ids: a thread id and its UUID map both ways, case-insensitively", () => {
  const thread = "thread_0123abcd456789abcdef0123456789ab";
  assert.equal(uuidOf(thread), UUID);
  assert.equal(threadIdOfConversation(UUID), thread);
  assert.equal(threadIdOfConversation(UUID.toUpperCase()), thread);
  assert.equal(
    uuidOf("run_ffffffffffffffffffffffffffffffff"),
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
  );
  for (const bad of ["", "abc", `${UUID}0`, UUID.replaceAll("-", ""), `{${UUID}}`]) {
    assert.equal(isUuid(bad), false, bad);
    assert.equal(threadIdOfConversation(bad), null, bad);
  }
  for (const bad of ["thread_0123", "item_0123abcd456789abcdef0123456789ab", UUID]) {
    assert.throws(() => uuidOf(bad), RangeError, bad);
  }
});

Deno.test("Dify request: inputs are kept (null dropped) and put before the query", () => {
  const parsed = parseDifyChatRequest({
    ...CLIENT_BODY,
    inputs: { city: "Paris", days: 3, note: null },
  });
  assert.ok(parsed.ok, "strings, numbers and null were refused");
  assert.deepEqual(parsed.request.inputs, { city: "Paris", days: 3 });
  assert.equal(
    difyTurnContent("Plan it", parsed.request.inputs),
    'Inputs: {"city":"Paris","days":3}\n\nPlan it',
  );
  assert.equal(difyTurnContent("Plan it", {}), "Plan it", "no inputs must leave the query alone");
});

Deno.test("Dify request: a turn's content splits back into its inputs and query", () => {
  const inputs = { city: "Paris", note: "two\nlines", days: 3 };
  const cases: [string, { inputs: Record<string, string | number>; query: string }][] = [
    [difyTurnContent("Plan it\n\nplease", inputs), { inputs, query: "Plan it\n\nplease" }],
    [difyTurnContent("Plan it", {}), { inputs: {}, query: "Plan it" }],
    ["Inputs: not json\n\nq", { inputs: {}, query: "Inputs: not json\n\nq" }],
    ["Inputs: [1]\n\nq", { inputs: {}, query: "Inputs: [1]\n\nq" }],
    ['Inputs: {"a":{"b":1}}\n\nq', { inputs: {}, query: 'Inputs: {"a":{"b":1}}\n\nq' }],
    ["Inputs: {}\n\nq", { inputs: {}, query: "Inputs: {}\n\nq" }],
    ['Inputs: {"a":1}', { inputs: {}, query: 'Inputs: {"a":1}' }],
  ];
  for (const [content, expected] of cases) {
    assert.deepEqual(splitDifyTurnContent(content), expected, JSON.stringify(content));
  }
});

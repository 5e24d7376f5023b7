import assert from "node:assert/strict";
import type { ConversationState, RunView } from "./projection.ts";
import { fallbackModel, followsDefaultModel, lastUsedModel } from "./thread_model.ts";

function conversationOf(runs: Array<Array<Partial<RunView>>>): ConversationState {
  return {
    threadId: "thr",
    snapshotSeq: 1,
    appliedSeq: 1,
    pending: [],
    turns: runs.map((turnRuns, i) => ({
      id: `turn${i}`,
      ordinal: i + 1,
      runs: turnRuns.map((run) => ({ providerId: null, modelId: null, ...run }) as RunView),
    })),
  };
}

Deno.test("lastUsedModel takes the latest Run that named a model", () => {
  assert.equal(
    lastUsedModel(conversationOf([
      [{ providerId: "deepseek", modelId: "chat" }],
      [{ providerId: "local", modelId: "qwen" }, {}],
    ])),
    "local/qwen",
  );
  assert.equal(lastUsedModel(conversationOf([[{}]])), null);
  assert.equal(lastUsedModel(conversationOf([])), null);
});

Deno.test("fallbackModel: the default model while enabled, else the first enabled one", () => {
  const enabled = ["local/small", "local/big"];
  assert.equal(fallbackModel(enabled, "local/big"), "local/big");
  assert.equal(fallbackModel(enabled, null), "local/small", "no default: the first");
  assert.equal(fallbackModel(enabled, "gone/model"), "local/small", "a disabled default");
  assert.equal(fallbackModel([], "local/big"), null, "nothing enabled: no pick");
});

Deno.test("followsDefaultModel: the start screen and threads without a model follow", () => {
  assert.equal(followsDefaultModel(null), true, "the start screen follows");
  assert.equal(followsDefaultModel(conversationOf([])), true, "a new thread follows");
  assert.equal(followsDefaultModel(conversationOf([[{}]])), true, "a Run without a model");
  assert.equal(
    followsDefaultModel(conversationOf([[{ providerId: "local", modelId: "small" }]])),
    false,
    "a thread that ran with a model keeps it",
  );
});

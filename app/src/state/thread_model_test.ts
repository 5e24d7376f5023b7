import assert from "node:assert/strict";
import type { ConversationState, RunView } from "./projection.ts";
import { lastUsedModel } from "./thread_model.ts";

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

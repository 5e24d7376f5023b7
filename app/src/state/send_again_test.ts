import assert from "node:assert/strict";
import type { Item } from "@daedalus/client";
import { type ConversationState, queuedRun, type RunView } from "./projection.ts";
import { canSendAgain, messageOfTurn } from "./send_again.ts";

function message(role: "user" | "assistant", content: string, data = {}): Item {
  return {
    id: `item_${role}`,
    turnId: "turn_1",
    runId: "run_1",
    ordinal: role === "user" ? 1 : 2,
    kind: "message",
    role,
    status: "completed",
    content,
    data,
    createdAt: "2026-11-30T00:00:00.000Z",
    updatedAt: "2026-11-30T00:00:00.000Z",
  } as Item;
}

function conversation(runs: RunView[][]): ConversationState {
  return {
    threadId: "thr",
    snapshotSeq: 1,
    appliedSeq: 1,
    pending: [],
    turns: runs.map((turnRuns, i) => ({ id: `turn_${i + 1}`, ordinal: i + 1, runs: turnRuns })),
  };
}

const settled = (id: string, status: RunView["status"], items: Item[] = []): RunView => ({
  ...queuedRun(id, "turn_1"),
  status,
  items,
});

Deno.test("messageOfTurn repeats the user's text and well-formed attachments only", () => {
  const attachments = [
    { kind: "image", path: "/h/a/1.png", mimeType: "image/png", size: 3, sha256: "x" },
    { kind: "pdf", path: "/h/a/2.pdf", mimeType: "application/pdf" },
    null,
  ];
  const state = conversation([[settled("run_1", "failed", [
    message("user", "fix it", { attachments }),
    message("assistant", "partial"),
  ])]]);
  assert.deepEqual(messageOfTurn(state, "turn_1"), {
    content: "fix it",
    attachments: [{ kind: "image", path: "/h/a/1.png", mimeType: "image/png" }],
  });
  assert.equal(messageOfTurn(state, "turn_9"), null);
});

Deno.test("canSendAgain: only the latest Run, and only when it failed or was cancelled", () => {
  const failed = settled("run_1", "failed");
  assert.equal(canSendAgain("run_1", failed), true);
  assert.equal(canSendAgain("run_2", failed), false, "a newer Run exists");
  assert.equal(canSendAgain("run_2", settled("run_2", "completed")), false);
  assert.equal(canSendAgain("run_3", settled("run_3", "cancelled")), true);
});

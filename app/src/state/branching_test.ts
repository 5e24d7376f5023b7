import assert from "node:assert/strict";
import type { JournalEvent, Turn, TurnSiblings } from "@daedalus/client";
import { forkPointOf, siblingBranch } from "./branching.ts";
import {
  applyConversationEvents,
  applyTurnList,
  type ConversationState,
  emptyConversation,
  type TurnView,
} from "./projection.ts";
import { feedRows } from "../ui/feed/feed_rows.ts";

const TS = "2026-10-01T10:00:00.000Z";
const THREAD = "thread_1";

function turn(id: string, ordinal: number, over: Partial<Turn> = {}): Turn {
  return {
    id,
    threadId: THREAD,
    branchId: "branch_main",
    ordinal,
    status: "completed",
    createdAt: TS,
    updatedAt: TS,
    runs: [{
      id: `run_${id}`,
      turnId: id,
      threadId: THREAD,
      branchId: "branch_main",
      providerId: "p",
      modelId: "m",
      executionPolicy: "ask",
      status: "completed",
      reasonCode: null,
      failureClass: null,
      modelCalls: 1,
      compactions: 0,
      createdAt: TS,
      startedAt: TS,
      settledAt: TS,
      items: [
        message(`${id}_q`, id, "user", 1, `question ${ordinal}`),
        message(`${id}_a`, id, "assistant", 2, `answer ${ordinal}`),
      ],
    }],
    ...over,
  };
}

function message(
  id: string,
  turnId: string,
  role: "user" | "assistant",
  ordinal: number,
  content: string,
) {
  return {
    id,
    turnId,
    runId: `run_${turnId}`,
    ordinal,
    kind: "message" as const,
    role,
    status: "completed" as const,
    content,
    data: {},
    createdAt: TS,
    updatedAt: TS,
  };
}

function loaded(turns: Turn[]): ConversationState {
  return applyTurnList(emptyConversation(THREAD), { turns, snapshotSeq: 10 });
}

const SIBLINGS: TurnSiblings = {
  index: 1,
  count: 3,
  turnIds: ["turn_a", "turn_b", "turn_c"],
  branchIds: ["branch_main", "branch_b", "branch_c"],
};

Deno.test("forkPointOf: the previous turn, told or loaded; null for a first turn", () => {
  const cases: [string, Turn[], string, string | null | undefined][] = [
    ["told by turn.list", [turn("t1", 1), turn("t2", 2, { parentTurnId: "t1" })], "t2", "t1"],
    ["a first turn", [turn("t1", 1, { parentTurnId: null })], "t1", null],
    ["not told: the turn one ordinal before", [turn("t1", 1), turn("t2", 2)], "t2", "t1"],
    ["not told, first", [turn("t1", 1)], "t1", null],
    ["not told and not loaded", [turn("t5", 5)], "t5", undefined],
    ["not shown", [turn("t1", 1)], "t9", undefined],
  ];
  for (const [name, turns, turnId, expected] of cases) {
    assert.equal(forkPointOf(loaded(turns), turnId), expected, name);
  }
});

Deno.test("siblingBranch: the branch one step either way, none past the ends", () => {
  const view: TurnView = { id: "turn_b", ordinal: 2, runs: [], siblings: SIBLINGS };
  assert.equal(siblingBranch(view, -1), "branch_main");
  assert.equal(siblingBranch(view, 1), "branch_c");
  const first = { ...view, siblings: { ...SIBLINGS, index: 0 } };
  assert.equal(siblingBranch(first, -1), null, "nothing before the first");
  const last = { ...view, siblings: { ...SIBLINGS, index: 2 } };
  assert.equal(siblingBranch(last, 1), null, "nothing after the last");
  assert.equal(siblingBranch({ id: "x", ordinal: 1, runs: [] }, 1), null, "no siblings told");
});

function started(seq: number, turnId: string, parentTurnId: string | null | undefined) {
  const header: Record<string, unknown> = {
    id: turnId,
    threadId: THREAD,
    branchId: "branch_other",
    ordinal: 2,
    createdAt: TS,
  };
  if (parentTurnId !== undefined) header.parentTurnId = parentTurnId;
  const runId = `run_${turnId}`;
  return {
    seq,
    schemaVersion: 1,
    type: "run.state_changed",
    threadId: THREAD,
    branchId: "branch_other",
    turnId,
    runId,
    itemId: null,
    timestamp: TS,
    payload: {
      status: "queued",
      previousStatus: null,
      run: { ...turn(turnId, 2).runs[0]!, id: runId, status: "queued", items: undefined },
      turn: header,
      turnId,
      runId,
    },
  } as unknown as JournalEvent;
}

function delta(seq: number, turnId: string) {
  return {
    seq,
    schemaVersion: 1,
    type: "item.delta",
    threadId: THREAD,
    branchId: "branch_other",
    turnId,
    runId: `run_${turnId}`,
    itemId: "item_x",
    timestamp: TS,
    payload: { delta: "hi", turnId, runId: `run_${turnId}`, itemId: "item_x" },
  } as unknown as JournalEvent;
}

Deno.test("a turn started on another branch stays out of the feed, with all its events", () => {
  const state = loaded([turn("t1", 1), turn("t2", 2, { parentTurnId: "t1" })]);
  // Regenerated elsewhere: its previous turn is t1, not the shown t2.
  const after = applyConversationEvents(state, [started(11, "t2b", "t1"), delta(12, "t2b")]);
  assert.deepEqual(after.turns.map((t) => t.id), ["t1", "t2"]);
  assert.deepEqual(after.otherBranchTurnIds, ["t2b"]);
  // A continuation of the shown history joins it, with its tree place.
  const next = applyConversationEvents(after, [started(13, "t3", "t2")]);
  assert.deepEqual(next.turns.map((t) => t.id), ["t1", "t2", "t3"]);
  assert.equal(next.turns[2]!.parentTurnId, "t2");
  // A runtime older than branches tells no previous turn: shown as before.
  const old = applyConversationEvents(state, [started(11, "t9", undefined)]);
  assert.deepEqual(old.turns.map((t) => t.id), ["t1", "t2", "t9"]);
});

Deno.test("feed rows: the switcher on a sibling turn's user message, Regenerate on its last answer", () => {
  const state = loaded([
    turn("t1", 1, { parentTurnId: null }),
    turn("turn_b", 2, { parentTurnId: "t1", siblings: SIBLINGS }),
  ]);
  const rows = feedRows(state.turns);
  const of = (key: string) => rows.find((row) => row.key === key);
  const question = of("turn_b_q");
  assert.ok(question?.kind === "item");
  assert.deepEqual(question.siblings, SIBLINGS);
  assert.equal(question.turnMessage, true);
  const firstQuestion = of("t1_q");
  assert.ok(firstQuestion?.kind === "item" && firstQuestion.siblings === undefined);
  assert.equal(firstQuestion.turnMessage, true, "every turn's own message can be edited");
  for (const key of ["t1_a", "turn_b_a"]) {
    const answer = of(key);
    assert.ok(
      answer?.kind === "item" && answer.lastAnswer === true,
      `${key} is its turn's last answer`,
    );
  }
  assert.equal(feedRows(state.turns)[1], rows[1], "rows keep their identity between calls");
});

Deno.test("feed rows: a steer is no turn message (Edit is offered on the turn's own only)", () => {
  const steered = turn("t1", 1);
  const items = [...steered.runs[0]!.items, message("t1_steer", "t1", "user", 3, "steer: more")];
  const state = loaded([{ ...steered, runs: [{ ...steered.runs[0]!, items }] }]);
  const rows = feedRows(state.turns);
  const steer = rows.find((row) => row.key === "t1_steer");
  assert.ok(steer?.kind === "item");
  assert.equal(steer.turnMessage, undefined);
  const own = rows.find((row) => row.key === "t1_q");
  assert.ok(own?.kind === "item" && own.turnMessage === true);
});

import assert from "node:assert/strict";
import type { Approval, Item } from "@daedalus/client";
import { inEnglish, inLocale } from "../../_testing.ts";
import { toolCardStatus } from "./tool_status.ts";

const TS = "2026-12-01T10:00:00.000Z";

function item(kind: Item["kind"], status: Item["status"]): Item {
  return {
    id: "item_1",
    turnId: "turn_1",
    runId: "run_1",
    ordinal: 2,
    kind,
    role: null,
    status,
    content: "",
    data: { toolId: "process_start" },
    createdAt: TS,
    updatedAt: TS,
  };
}

const approval = (status: Approval["status"]) => ({ status }) as Approval;

Deno.test("tool card status: a call waiting for its approval is not running", () => {
  const cases: [Item, Approval | null, string][] = [
    [item("tool_call", "running"), approval("pending"), "waiting-approval"],
    [item("tool_call", "streaming"), approval("pending"), "waiting-approval"],
    [item("tool_call", "running"), null, "running"],
    [item("tool_call", "running"), approval("allowed"), "running"],
    [item("tool_call", "running"), approval("denied"), "running"],
    // A settled call says how it ended even if a stale approval still reads pending.
    [item("tool_call", "completed"), approval("pending"), "completed"],
    [item("tool_call", "failed"), approval("pending"), "failed"],
    [item("tool_call", "cancelled"), approval("pending"), "cancelled"],
    // Only the call waits; its result card never does.
    [item("tool_result", "running"), approval("pending"), "running"],
  ];
  for (const [it, app, want] of cases) {
    assert.equal(
      toolCardStatus(it, app).name,
      want,
      `${it.kind} ${it.status} with approval ${app?.status ?? "none"}`,
    );
  }
});

Deno.test("tool card status: the waiting label in both locales", () => {
  const waiting = () => toolCardStatus(item("tool_call", "running"), approval("pending")).label;
  assert.equal(inEnglish(waiting), "waiting for approval");
  assert.equal(inLocale("zh-CN", waiting), "等待批准");
  assert.equal(
    inEnglish(() => toolCardStatus(item("tool_call", "running"), null).label),
    "running",
  );
});

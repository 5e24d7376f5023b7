import assert from "node:assert/strict";
import type { Item } from "@daedalus/client";
import type { VNode } from "preact";
import { inEnglish, inLocale, renderedText as text } from "../../_testing.ts";
import { ToolRow } from "./ToolRow.tsx";
import { ToolActivity } from "./ToolActivity.tsx";
import type { ToolCallView } from "./tool_activity.ts";
import { toolDisclosure } from "./tool_disclosure.ts";
import { approvals } from "../../state/approval_store.ts";
import { emptyApprovals } from "../../state/approvals.ts";
import { approvalFixture } from "../../state/_approval_fixture.ts";

function item(id: string, kind: Item["kind"], more: Partial<Item>): Item {
  return {
    id,
    turnId: "turn",
    runId: "run",
    ordinal: 1,
    kind,
    role: kind === "tool_result" ? "tool" : "assistant",
    status: "completed",
    content: "",
    data: {},
    createdAt: "2026-12-01T10:00:00.000Z",
    updatedAt: "2026-12-01T10:00:00.000Z",
    ...more,
  };
}

const readCall = (id: string, path: string, status: Item["status"] = "completed") =>
  item(id, "tool_call", { status, data: { toolId: "read", callId: id, arguments: { path } } });
const readResult = (id: string, more: Partial<Item> = {}) =>
  item(`${id}-r`, "tool_result", {
    createdAt: "2026-12-01T10:00:00.400Z",
    data: { toolId: "read", callId: id },
    ...more,
  });

/** The first element of a rendered tree with this class, depth first. */
function find(node: unknown, cls: string): VNode<Record<string, unknown>> | null {
  if (!node || typeof node !== "object") return null;
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = find(child, cls);
      if (found) return found;
    }
    return null;
  }
  const vnode = node as VNode<Record<string, unknown>>;
  if (typeof vnode.type === "function") {
    return find((vnode.type as (props: unknown) => unknown)(vnode.props), cls);
  }
  const classes = String(vnode.props.class ?? "").split(" ");
  if (classes.includes(cls)) return vnode;
  return find(vnode.props.children, cls);
}

Deno.test("tool row: verb, target, duration; a failure's message on the row", () => {
  toolDisclosure.value = {};
  inEnglish(() => {
    const done: ToolCallView = { call: readCall("c1", "src/a.ts"), result: readResult("c1") };
    const row = ToolRow({ view: done, runActive: false, workspaceRoot: null });
    assert.equal(text(row), "Readsrc/a.ts0.4 s");
    const line = find(row, "tool-row-line")!;
    assert.equal(line.props["aria-expanded"], false);
    assert.equal(line.props.title, "src/a.ts");
    assert.equal(line.props["aria-label"], "Read src/a.ts: done");
    const history = ToolRow({
      view: { call: item("h", "tool_call", { data: { toolId: "history_read" } }), result: null },
      runActive: false,
      workspaceRoot: null,
    });
    assert.equal(
      find(history, "tool-row-line")!.props["aria-label"],
      "Read the conversation: done",
    );
    assert.equal(find(row, "tool-card"), null, "folded: no details");

    const failed: ToolCallView = {
      call: readCall("c2", "missing.txt", "failed"),
      result: readResult("c2", {
        status: "failed",
        content: "File not found: missing.txt",
        data: { toolId: "read", callId: "c2", isError: true, errorCode: "file_not_found" },
      }),
    };
    const failedRow = ToolRow({ view: failed, runActive: false, workspaceRoot: null });
    assert.equal(text(find(failedRow, "tool-row-error")), "File not found: missing.txt");
    assert.match(text(failedRow), /failed/);
    assert.doesNotMatch(text(failedRow), /file_not_found/, "the code waits under Details");

    const running: ToolCallView = { call: readCall("c3", "b.ts", "running"), result: null };
    const runningRow = ToolRow({ view: running, runActive: true, workspaceRoot: null });
    assert.match(text(runningRow), /^Readingb\.tsrunning$/);
    assert.ok(find(runningRow, "tool-spinner"), "a spinner while it runs");
    approvals.value = { byId: { approval_1: approvalFixture({ toolCallItemId: "w" }) } };
    const asking = ToolRow({
      view: {
        call: item("w", "tool_call", {
          status: "running",
          data: { toolId: "process_start", arguments: { command: "rm -rf build" } },
        }),
        result: null,
      },
      runActive: true,
      workspaceRoot: null,
    });
    assert.equal(text(find(asking, "tool-row-line")), "Runrm -rf buildwaiting for approval");
    approvals.value = emptyApprovals();
  });
  inEnglish(() => {
    const command = "npm run dev -- --port 5173";
    const started = item("p", "tool_call", {
      data: { toolId: "process_start", arguments: { command, background: true } },
    });
    const row = ToolRow({
      view: { call: started, result: null },
      runActive: false,
      workspaceRoot: null,
    });
    assert.equal(text(find(row, "tool-row-line")), `Ran${command}background`);
  });
  inLocale("zh-CN", () => {
    const done: ToolCallView = { call: readCall("c1", "a.ts"), result: readResult("c1") };
    assert.equal(
      text(ToolRow({ view: done, runActive: false, workspaceRoot: null })),
      "读取了a.ts0.4 秒",
    );
  });
});

Deno.test("tool row: Enter or a click opens its details; the choice is kept by key", () => {
  toolDisclosure.value = {};
  inEnglish(() => {
    const view: ToolCallView = { call: readCall("c1", "a.ts"), result: readResult("c1") };
    const line = find(ToolRow({ view, runActive: false, workspaceRoot: null }), "tool-row-line")!;
    (line.props.onClick as () => void)();
    const open = ToolRow({ view, runActive: false, workspaceRoot: null });
    assert.equal(find(open, "tool-row-line")!.props["aria-expanded"], true);
    assert.ok(find(open, "tool-row-details"), "open: the details are there");
  });
  toolDisclosure.value = {};
});

Deno.test("tool group: one header for a step, folded when done, open while running", () => {
  toolDisclosure.value = {};
  inEnglish(() => {
    const calls = [1, 2, 3, 4].map((n) => ({
      call: readCall(`c${n}`, `f${n}.ts`),
      result: readResult(`c${n}`),
    }));
    const group = ToolActivity({ calls, runActive: false });
    assert.match(text(group), /^Read 4 files0\.4 s$/);
    const line = find(group, "tool-group-line")!;
    assert.equal(line.props["aria-expanded"], false, "a finished step is folded");
    assert.equal(find(group, "tool-row"), null);
    const mixed = [
      { call: item("e", "tool_call", { data: { toolId: "echo" } }), result: null },
      ...calls.slice(1),
    ];
    const running = ToolActivity({
      calls: mixed.map((view, i) =>
        i === 0 ? { ...view, call: { ...view.call!, status: "running" } } : view
      ),
      runActive: true,
    });
    assert.match(text(running), /^Ran 4 toolsrunning/);
    assert.equal(find(running, "tool-group-line")!.props["aria-expanded"], true);
    assert.ok(find(running, "tool-group-rows"), "its rows show while it runs");
  });
});

import assert from "node:assert/strict";
import { type Item, runFailureClass, type Turn } from "@daedalus/protocol";
import { buildContext } from "./context_builder.ts";
import { itemsToMessages, selectHistory, TOOL_IMAGES_NOTE } from "./history.ts";
import { estimateTextTokens, estimateToolsTokens } from "./token_estimate.ts";
import type { ProviderTool } from "../providers/provider.ts";
import { buildStatusBlock } from "./status_block.ts";

const hex = (n: number) => n.toString(16).padStart(32, "0");
let counter = 0;
function item(
  kind: Item["kind"],
  role: Item["role"],
  content: string,
  data: Record<string, unknown> = {},
  status: Item["status"] = "completed",
): Item {
  counter++;
  return {
    id: `item_${hex(counter)}`,
    turnId: `turn_${hex(1)}`,
    runId: `run_${hex(1)}`,
    ordinal: counter,
    kind,
    role,
    status,
    content,
    data,
    createdAt: "2026-10-01T10:00:00.000Z",
    updatedAt: "2026-10-01T10:00:00.000Z",
  };
}

function turn(
  ordinal: number,
  items: Item[],
  status: "completed" | "failed" | "cancelled" = "completed",
  reasonCode: string | null = null,
): Turn {
  return {
    id: `turn_${hex(ordinal)}`,
    threadId: `thread_${hex(1)}`,
    branchId: `branch_${hex(1)}`,
    ordinal,
    status,
    createdAt: "2026-10-01T10:00:00.000Z",
    updatedAt: "2026-10-01T10:00:00.000Z",
    runs: [{
      id: `run_${hex(ordinal)}`,
      turnId: `turn_${hex(ordinal)}`,
      threadId: `thread_${hex(1)}`,
      branchId: `branch_${hex(1)}`,
      providerId: "p",
      modelId: "m",
      executionPolicy: "full_access",
      status,
      reasonCode: reasonCode as Turn["runs"][number]["reasonCode"],
      failureClass: runFailureClass(reasonCode as Turn["runs"][number]["reasonCode"]),
      modelCalls: 1,
      compactions: 0,
      createdAt: "2026-10-01T10:00:00.000Z",
      startedAt: null,
      settledAt: null,
      items,
    }],
  };
}

/** A branch of `count` turns, each a 100-character question and answer. */
function branch(count: number): Turn[] {
  return Array.from(
    { length: count },
    (_, i) =>
      turn(i + 1, [
        item("message", "user", `q${i + 1} `.padEnd(100, ".")),
        item("message", "assistant", `a${i + 1} `.padEnd(100, ".")),
      ]),
  );
}

function reader(turns: Turn[]) {
  const reads: number[] = [];
  const read = (before: number, limit: number) => {
    reads.push(before);
    return turns.filter((t) => t.ordinal < before).sort((a, b) => b.ordinal - a.ordinal).slice(
      0,
      limit,
    );
  };
  return { read, reads };
}

Deno.test("tool calls are kept only with their results, paired in order", () => {
  const call1 = item("tool_call", "assistant", "", {
    toolId: "read",
    callId: "c1",
    arguments: { path: "a" },
  });
  const call2 = item("tool_call", "assistant", "", {
    toolId: "read",
    callId: "c2",
    arguments: { path: "b" },
  });
  const orphan = item("tool_call", "assistant", "", {
    toolId: "write",
    callId: "c3",
    arguments: {},
  }, "cancelled");
  const messages = itemsToMessages([
    item("message", "user", "go"),
    item("message", "assistant", "reading"),
    call1,
    call2,
    item("tool_result", "tool", "A", { toolCallItemId: call1.id }),
    item("tool_result", "tool", "B", { toolCallItemId: call2.id }),
    orphan,
    item("message", "assistant", "partial", {}, "streaming"),
  ]);
  assert.deepEqual(messages.map((m) => m.role), ["user", "assistant", "tool", "tool"]);
  const assistant = messages[1]!;
  assert.ok(assistant.role === "assistant");
  assert.deepEqual(assistant.toolCalls?.map((c) => c.id), ["c1", "c2"]);
});

Deno.test('each step\'s reasoning rides with its tool calls; a step without reasoning gets ""', () => {
  const call = (id: string, args: unknown) =>
    item("tool_call", "assistant", "", { callId: id, toolId: "read", arguments: args });
  const c1 = call("c1", { path: "a" });
  const c2 = call("c2", { path: "b" });
  const c3 = call("c3", '{"path": "cut'); // not valid JSON: stored as its raw text
  const messages = itemsToMessages([
    item("message", "user", "go"),
    item("message", "assistant", "", { reasoning: "Read a first." }), // reasoning only
    c1,
    item("tool_result", "tool", "A", { toolCallItemId: c1.id }),
    c2, // a step that streamed nothing before its call: no message item at all
    item("tool_result", "tool", "B", { toolCallItemId: c2.id }),
    item("message", "assistant", "Now c.", { reasoning: "c next" }),
    c3,
    item("tool_result", "tool", "Tool arguments are not valid JSON", { toolCallItemId: c3.id }),
    item("message", "assistant", "Done.", { reasoning: "finished" }),
    item("message", "user", "thanks"),
    item("message", "assistant", "You're welcome.", { reasoning: "polite" }),
  ]);
  const assistants = messages.filter((m) => m.role === "assistant");
  assert.deepEqual(
    assistants.map((m) => [m.content, m.reasoning, m.toolCalls?.map((c) => c.id) ?? []]),
    [
      ["", "Read a first.", ["c1"]],
      ["", "", ["c2"]],
      ["Now c.", "c next", ["c3"]],
      ["Done.", "finished", []],
      // a stretch without tool calls: DeepSeek ignores its reasoning, so it is not kept
      ["You're welcome.", undefined, []],
    ],
  );
  assert.equal(assistants[0]!.toolCalls?.[0]?.arguments, '{"path":"a"}', "encoded once");
  assert.equal(
    assistants[2]!.toolCalls?.[0]?.arguments,
    "{}",
    "invalid arguments are never replayed JSON-encoded twice (nor as broken JSON)",
  );
});

Deno.test("history is a contiguous suffix read 32 turns a page, cut at the first turn that does not fit", () => {
  const turns = branch(100);
  const perTurn = 2 * (4 + 100);
  const { read, reads } = reader(turns);
  const selected = selectHistory(read, 101, perTurn * 40 + 10);
  assert.deepEqual(
    selected.turns.map((t) => t.ordinal),
    Array.from({ length: 40 }, (_, i) => 61 + i),
  );
  assert.equal(selected.omittedThroughOrdinal, 60);
  assert.deepEqual(reads, [101, 69], "two pages: turns 100–69, then 68–37");
  const all = selectHistory(reader(turns).read, 101, 1e9);
  assert.equal(all.turns.length, 100);
  assert.equal(all.omittedThroughOrdinal, null);
  const none = selectHistory(reader(turns).read, 101, 10);
  assert.deepEqual([none.turns.length, none.omittedThroughOrdinal], [0, 100]);
});

Deno.test("the context keeps system, history, notes and the current turn within 95 %", () => {
  const turns = branch(50);
  const context = buildContext({
    systemText: "You are Daedalus.",
    turnOrdinal: 51,
    currentItems: [item("message", "user", "now")],
    readHistoryPage: reader(turns).read,
    contextWindow: 8_000,
  });
  assert.equal(context.budgetTokens, 7_600);
  assert.ok(context.estimatedTokens <= context.budgetTokens);
  assert.equal(context.messages[0]?.role, "system");
  assert.equal(context.messages.at(-1)?.role, "user");
  const omitted = context.stepInput.omittedThroughOrdinal as number;
  assert.ok(omitted > 0 && omitted < 50);
  assert.ok(
    context.messages.some((m) =>
      m.role === "system" && String(m.content).includes(`Turns 1–${omitted}`)
    ),
  );
  assert.equal(context.compactionDue, false);
});

Deno.test("an oversized current turn is flagged for compaction, then as over budget", () => {
  const big = (chars: number) =>
    buildContext({
      systemText: "s",
      turnOrdinal: 1,
      currentItems: [item("message", "user", "x".repeat(chars))],
      readHistoryPage: () => [],
      contextWindow: 10_000,
    });
  assert.deepEqual([big(8_000).compactionDue, big(8_000).overBudget], [false, false]);
  assert.deepEqual([big(9_200).compactionDue, big(9_200).overBudget], [true, false]);
  assert.deepEqual([big(9_600).compactionDue, big(9_600).overBudget], [true, true]);
});

Deno.test("the tools' schemas count: a turn that fits a window without them is compacted, then over budget, with them", () => {
  const tools: ProviderTool[] = Array.from({ length: 21 }, (_, index) => ({
    name: `tool_${index}`,
    description: "Does one thing well. ".repeat(12),
    parameters: {
      type: "object",
      properties: { path: { type: "string", description: "Where, inside the workspace" } },
      required: ["path"],
    },
  }));
  const toolTokens = estimateToolsTokens(tools);
  assert.ok(toolTokens > 21 * JSON.stringify(tools[0]).length, "each tool's wire form counts");
  // A window the turn fills to 85 % without tools: no compaction, within budget.
  const turnChars = 8_500;
  const build = (withTools: boolean, contextWindow: number) =>
    buildContext({
      systemText: "s",
      turnOrdinal: 1,
      currentItems: [item("message", "user", "x".repeat(turnChars))],
      readHistoryPage: () => [],
      contextWindow,
      ...(withTools ? { tools } : {}),
    });
  const without = build(false, 10_000);
  assert.deepEqual([without.compactionDue, without.overBudget], [false, false]);
  const withTools = build(true, 10_000);
  assert.deepEqual([withTools.compactionDue, withTools.overBudget], [true, true]);
  assert.equal(withTools.stepInput.toolTokens, toolTokens);
  assert.equal(withTools.estimatedTokens, without.estimatedTokens + toolTokens);
  // Just enough room for the tools as well: the same turn is due for compaction, not over.
  const roomy = build(true, Math.ceil((turnChars + toolTokens + 20) / 0.92));
  assert.deepEqual([roomy.compactionDue, roomy.overBudget], [true, false]);
});

Deno.test("the status block describes failed and cancelled runs without replaying them", () => {
  const call = item("tool_call", "assistant", "", { toolId: "write" }, "cancelled");
  const block = buildStatusBlock([
    turn(1, [item("message", "user", "a")]),
    turn(
      2,
      [item("message", "user", "b"), item("message", "assistant", "half", {}, "cancelled"), call],
      "cancelled",
      "cancelled",
    ),
    turn(3, [item("message", "user", "c")], "failed", "provider_timeout"),
  ]);
  assert.ok(block);
  assert.match(
    block,
    /Turn 2: the run was cancelled \(cancelled\)\. Tool calls: 0 completed, 0 failed, 1 interrupted/,
  );
  assert.match(block, /partial/);
  assert.match(block, /Turn 3: the run failed \(provider_timeout\)/);
  assert.match(block, /not replayed/);
  assert.equal(buildStatusBlock([turn(1, [item("message", "user", "a")])]), null);
});

Deno.test("the estimate is an upper bound: UTF-8 bytes, images 2,048", () => {
  assert.equal(estimateTextTokens("hello"), 5);
  assert.equal(estimateTextTokens("你好"), 6);
  assert.equal(estimateTextTokens("é"), 2);
});

Deno.test("compaction cuts before the first kept unit, so parallel calls keep their results", async () => {
  const { planCompaction } = await import("./compaction.ts");
  counter = 0;
  const user = item("message", "user", "go");
  const text = item("message", "assistant", "reading two logs");
  const c1 = item("tool_call", "assistant", "", { toolId: "echo", callId: "c1", arguments: {} });
  const c2 = item("tool_call", "assistant", "", { toolId: "echo", callId: "c2", arguments: {} });
  const r1 = item("tool_result", "tool", "x".repeat(600), { toolCallItemId: c1.id });
  const r2 = item("tool_result", "tool", "y".repeat(600), { toolCallItemId: c2.id });
  const plan = planCompaction([user, text, c1, c2, r1, r2], 2_000)!;
  assert.equal(plan.boundaryOrdinal, c2.ordinal - 1);
  const visible = [user, text, c1, c2, r1, r2].filter((i) => i.ordinal > plan.boundaryOrdinal);
  const messages = itemsToMessages(visible);
  assert.deepEqual(
    messages.map((m) => m.role),
    ["assistant", "tool"],
    "c2 with its result; r1 dropped",
  );
});

Deno.test("the Run's compaction threshold decides when the fixed part is due", () => {
  const due = (chars: number, compactionThreshold?: number) =>
    buildContext({
      systemText: "s",
      turnOrdinal: 1,
      currentItems: [item("message", "user", "x".repeat(chars))],
      readHistoryPage: () => [],
      contextWindow: 10_000,
      ...(compactionThreshold === undefined ? {} : { compactionThreshold }),
    });
  const cases: [number, number | undefined, boolean][] = [
    [6_000, undefined, false],
    [6_000, 0.9, false],
    [6_000, 0.5, true],
    [4_000, 0.5, false],
    [8_600, 0.9, false],
    [8_600, 0.85, true],
  ];
  for (const [chars, threshold, expected] of cases) {
    const context = due(chars, threshold);
    assert.equal(context.compactionDue, expected, `${chars} chars at threshold ${threshold}`);
    assert.equal(context.stepInput.compactionThreshold, threshold ?? 0.9);
  }
});

Deno.test("a thread compaction's summary stands for the turns up to its turn", () => {
  const turns = branch(10);
  const readPage = (before: number, limit: number) =>
    turns.filter((t) => t.ordinal < before).reverse().slice(0, limit);
  const cuts = new Map([[turns[3]!.id, { throughTurnId: turns[3]!.id, summary: "SUMMARY-1-4" }]]);
  const context = buildContext({
    systemText: "s",
    turnOrdinal: 11,
    currentItems: [item("message", "user", "now")],
    readHistoryPage: readPage,
    contextWindow: 100_000,
    historyCuts: cuts,
  });
  const texts = context.messages.map((m) => String(m.content));
  assert.equal(texts[1], "SUMMARY-1-4", "the summary comes right after the system prompt");
  for (let n = 1; n <= 4; n++) {
    assert.ok(!texts.some((t) => t.startsWith(`q${n} `)), `turn ${n} is replaced by the summary`);
  }
  for (let n = 5; n <= 10; n++) {
    assert.ok(texts.some((t) => t.startsWith(`q${n} `)), `turn ${n} is kept verbatim`);
  }
  assert.deepEqual(context.stepInput.historyTurns, [5, 6, 7, 8, 9, 10]);
  assert.equal(context.stepInput.compactedThroughTurnId, turns[3]!.id);
  assert.equal(context.stepInput.omittedThroughOrdinal, null, "nothing is omitted");
  assert.ok(!texts.some((t) => t.includes("are not shown")), "no omission note");
});

Deno.test("a compaction of a turn outside this history (another branch) is not used", () => {
  const turns = branch(3);
  const readPage = (before: number, limit: number) =>
    turns.filter((t) => t.ordinal < before).reverse().slice(0, limit);
  const elsewhere = `turn_${"f".repeat(32)}`;
  const selected = selectHistory(
    readPage,
    4,
    100_000,
    new Map([[elsewhere, { throughTurnId: elsewhere, summary: "OTHER" }]]),
  );
  assert.equal(selected.compaction, null);
  assert.deepEqual(selected.turns.map((t) => t.ordinal), [1, 2, 3]);
  assert.ok(!selected.messages.some((m) => m.content === "OTHER"));
});

Deno.test("the newest compacted turn of the history ends it, even when an older one has a summary too", () => {
  const turns = branch(6);
  const readPage = (before: number, limit: number) =>
    turns.filter((t) => t.ordinal < before).reverse().slice(0, limit);
  const cuts = new Map([
    [turns[1]!.id, { throughTurnId: turns[1]!.id, summary: "THROUGH-2" }],
    [turns[3]!.id, { throughTurnId: turns[3]!.id, summary: "THROUGH-4" }],
  ]);
  const selected = selectHistory(readPage, 7, 100_000, cuts);
  assert.equal(selected.compaction?.summary, "THROUGH-4");
  assert.deepEqual(selected.turns.map((t) => t.ordinal), [5, 6]);
  assert.equal(selected.messages[0]?.content, "THROUGH-4");
});

Deno.test("a summary that does not fit is omitted like the turns it stands for", () => {
  const turns = branch(4);
  const readPage = (before: number, limit: number) =>
    turns.filter((t) => t.ordinal < before).reverse().slice(0, limit);
  const cuts = new Map([[turns[1]!.id, {
    throughTurnId: turns[1]!.id,
    summary: "S".repeat(20_000),
  }]]);
  const selected = selectHistory(readPage, 5, 1_000, cuts);
  assert.equal(selected.compaction, null);
  assert.equal(selected.omittedThroughOrdinal, 2, "the summary's turn is the omission boundary");
  assert.deepEqual(selected.turns.map((t) => t.ordinal), [3, 4]);
});

Deno.test("a tool result's images follow its step's tool messages as one user message", () => {
  const user = item("message", "user", "look at these");
  const first = item("tool_call", "assistant", "", { toolId: "mcp__e__img", callId: "c1" });
  const second = item("tool_call", "assistant", "", { toolId: "mcp__e__img", callId: "c2" });
  const firstResult = item("tool_result", "tool", "[image image/png, 9 bytes: …]", {
    toolCallItemId: first.id,
  });
  const secondResult = item("tool_result", "tool", "no image", { toolCallItemId: second.id });
  const answer = item("message", "assistant", "I see a red dot");
  const image = { type: "image_url" as const, url: "data:image/png;base64,AAAA" };
  const messages = itemsToMessages(
    [user, first, second, firstResult, secondResult, answer],
    new Map([[firstResult.id, [image]]]),
  );
  assert.deepEqual(messages.map((m) => m.role), [
    "user",
    "assistant",
    "tool",
    "tool",
    "user",
    "assistant",
  ], "the images after both tool messages of the step, before the answer");
  assert.deepEqual(messages[4]!.content, [
    { type: "text", text: TOOL_IMAGES_NOTE },
    image,
  ]);
  // Without rendered images (a model without vision), nothing is added.
  assert.deepEqual(
    itemsToMessages([user, first, firstResult]).map((m) => m.role),
    ["user", "assistant", "tool"],
  );
  // Images of the last step (the Run goes on) close the list.
  assert.deepEqual(
    itemsToMessages([user, first, firstResult], new Map([[firstResult.id, [image]]]))
      .map((m) => m.role),
    ["user", "assistant", "tool", "user"],
  );
});

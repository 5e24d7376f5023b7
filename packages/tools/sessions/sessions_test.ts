/**
 * The session tools through the one wrapper, over an in-memory {@linkcode SessionOperations}
 * (the runtime's, over SQLite and the scheduler, is exercised through the real loop in
 * packages/runtime/session_tools/session_tools_test.ts): invalid arguments, the permission
 * check, cancellation, coded refusals, artifact offload of a large result, and timing.
 */
import assert from "node:assert/strict";
import type { Item, Thread } from "@daedalus/protocol";
import { createTestWorkspace } from "../_testing.ts";
import { executeTool } from "../execute.ts";
import type { ToolContext } from "../tool.ts";
import { ARTIFACT_THRESHOLD_BYTES } from "../limits.ts";
import type { SessionOperations } from "./session_operations.ts";
import { historyReadTool } from "./history_read.ts";
import { threadReadTool } from "./thread_read.ts";
import { threadCreateTool } from "./thread_create.ts";
import { threadSendTool } from "./thread_send.ts";
import { subagentTool } from "./subagent.ts";

const THREAD = `thread_${"a".repeat(32)}`;
const OTHER = `thread_${"b".repeat(32)}`;
const ITEM = `item_${"c".repeat(32)}`;

function item(index: number, content: string): Item {
  return {
    id: `item_${index.toString(16).padStart(32, "0")}`,
    turnId: "turn_1",
    runId: "run_1",
    ordinal: index,
    kind: "message",
    role: "assistant",
    status: "completed",
    content,
    data: {},
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
}

function thread(id: string): Thread {
  return {
    id,
    title: "t",
    defaultBranchId: "branch_1",
    workspace: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    archivedAt: null,
  };
}

/** Threads held in memory; `waitForRun` waits until released or the signal aborts. */
function memorySessions(items: Map<string, Item[]>) {
  const calls: string[] = [];
  let release: (() => void) | undefined;
  const sessions: SessionOperations = {
    callerHops: 0,
    subagentDepth: 0,
    subagentMaxDepth: 2,
    readSlice: (threadId, anchorItemId, maxItems) => {
      calls.push(`readSlice ${threadId}`);
      const all = items.get(threadId) ?? [];
      const found = anchorItemId === undefined || all.some((i) => i.id === anchorItemId);
      return {
        items: all.slice(-maxItems),
        anchorFound: found,
        hasBefore: all.length > maxItems,
        hasAfter: false,
      };
    },
    listThreads: () => ({ threads: [...items.keys()].map(thread), hasMore: false }),
    getThread: (threadId) => {
      if (!items.has(threadId)) {
        throw Object.assign(new Error(`No thread ${threadId}`), { code: "thread_not_found" });
      }
      return thread(threadId);
    },
    isThreadBusy: () => false,
    hasActiveRun: () => false,
    createThread: (options) => {
      calls.push(`createThread ${options.clientRequestId}`);
      items.set(OTHER, []);
      return Promise.resolve(thread(OTHER));
    },
    renameThread: () => ({ changed: true }),
    setThreadArchived: () => ({ changed: true }),
    startRun: (request) => {
      calls.push(`startRun ${request.clientRequestId}`);
      return Promise.resolve({ threadId: request.threadId, turnId: "turn_2", runId: "run_2" });
    },
    waitForRun: (_run, signal) =>
      new Promise((resolve, reject) => {
        release = () => resolve({ status: "completed", answer: "done" });
        signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      }),
    queueRun: () => calls.push("queueRun"),
    liveQueuedRuns: () => 0,
  };
  return { sessions, calls, release: () => release?.() };
}

async function withSessions(
  items: Map<string, Item[]>,
  fn: (context: ToolContext, memory: ReturnType<typeof memorySessions>) => Promise<void>,
  policy: ToolContext["executionPolicy"] = "full_access",
) {
  await using ws = await createTestWorkspace({
    threadId: THREAD,
    itemId: ITEM,
    executionPolicy: policy,
  });
  const memory = memorySessions(items);
  await fn({ ...ws.context, sessions: memory.sessions }, memory);
}

Deno.test("a session tool's bad arguments name the field and never reach the sessions", async () => {
  await withSessions(new Map([[THREAD, []]]), async (context, memory) => {
    const result = await executeTool(historyReadTool, { itemId: "not-an-item" }, context);
    assert.equal(result.errorCode, "invalid_arguments");
    assert.match(result.content, /^Invalid arguments for history_read: itemId: /);
    const extra = await executeTool(historyReadTool, { item: ITEM }, context);
    assert.match(extra.content, /item/);
    assert.deepEqual(memory.calls, [], "no operation ran");
  });
});

Deno.test("session changes are refused outside full_access, reads are not", async () => {
  for (const policy of ["read_only", "workspace_write"] as const) {
    await withSessions(new Map([[THREAD, [item(1, "hi")]]]), async (context, memory) => {
      const created = await executeTool(threadCreateTool, { title: "x" }, context);
      assert.equal(created.errorCode, "permission_denied", policy);
      assert.equal(
        created.content,
        `permission_denied: thread_create changes sessions and needs full_access; this run is ${policy}`,
      );
      const read = await executeTool(historyReadTool, {}, context);
      assert.equal(read.isError, undefined, read.content);
      assert.deepEqual(memory.calls, [`readSlice ${THREAD}`], "only the read ran");
    }, policy);
  }
});

Deno.test("a coded refusal keeps its code and words; an uncoded failure is tool_failed", async () => {
  await withSessions(new Map([[THREAD, []]]), async (context) => {
    const same = await executeTool(threadSendTool, { threadId: THREAD, content: "hi" }, context);
    assert.deepEqual([same.errorCode, same.content], [
      "invalid_arguments",
      "invalid_arguments: Cannot send to this same thread",
    ]);
    const missing = await executeTool(threadReadTool, { threadId: OTHER }, context);
    assert.equal(missing.errorCode, "tool_failed", "an uncoded Error stays tool_failed");
    assert.match(missing.content, /No thread/);
  });
});

Deno.test("cancelling a waiting sub-agent call settles it cancelled", async () => {
  await withSessions(new Map([[THREAD, []]]), async (base, memory) => {
    const controller = new AbortController();
    const context = { ...base, signal: controller.signal };
    const running = executeTool(subagentTool, { task: "count" }, context);
    await waitFor(() => memory.calls.length === 2, "the child run to start");
    controller.abort();
    const result = await running;
    assert.deepEqual([result.errorCode, result.content], [
      "cancelled",
      "The subagent call was cancelled",
    ]);
    assert.deepEqual(memory.calls, [`createThread subagent:${ITEM}`, `startRun subagent:${ITEM}`]);
    const before = await executeTool(subagentTool, { task: "count" }, context);
    assert.equal(before.errorCode, "cancelled", "an aborted signal runs nothing");
    assert.equal(memory.calls.length, 2);
  });
});

Deno.test("a session read over 64 KiB goes to an artifact; every result is timed", async () => {
  // 24,000 characters of three-byte text: within the read's character cap, over 64 KiB.
  const wide = "界".repeat(11_000);
  const items = new Map([[THREAD, [item(1, wide), item(2, wide)]]]);
  await withSessions(items, async (context) => {
    const result = await executeTool(historyReadTool, {}, context);
    assert.equal(result.isError, undefined, result.content.slice(0, 200));
    const details = result.details ?? {};
    assert.equal(details.truncated, true);
    assert.equal(typeof details.artifactPath, "string");
    const artifact = await Deno.readTextFile(details.artifactPath as string);
    assert.ok(new TextEncoder().encode(artifact).length > ARTIFACT_THRESHOLD_BYTES);
    assert.ok(artifact.includes(wide.slice(0, 100)), "the artifact holds the full slice");
    assert.match(result.content, /\[Output truncated: \d+ bytes/);
    assert.equal(typeof details.durationMs, "number");
    const small = await executeTool(threadCreateTool, {}, context);
    assert.equal(small.content, `Created thread ${OTHER}`);
    assert.equal(typeof small.details?.durationMs, "number", "timed too");
  });
});

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

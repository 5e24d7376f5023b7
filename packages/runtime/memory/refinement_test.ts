import assert from "node:assert/strict";
import { ExtractionCursors, MemoryStore } from "@daedalus/storage";
import { AuxiliaryQueue } from "../providers/auxiliary_queue.ts";
import { waitUntil } from "../_test_wait.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "../providers/provider.ts";
import {
  MemoryRefinement,
  type RefinementItem,
  type RefinementLogEntry,
  type RefinementPosition,
} from "./refinement.ts";

const THREAD = "thread_00000000000000000000000000000001";
const GLOBAL = { type: "global", key: null } as const;

function item(n: number, role: "user" | "assistant", content: string): RefinementItem {
  const itemId = `item_${String(n).padStart(32, "0")}`;
  const position: RefinementPosition = {
    turnOrdinal: n,
    runCreatedAt: `2026-01-01T00:00:0${n}.000Z`,
    runId: `run_${n}`,
    itemOrdinal: 1,
    itemId,
  };
  return { itemId, turnId: `turn_${n}`, role, content, position };
}

const ITEMS = [
  item(1, "user", "I live in Berlin and I prefer dark mode in the editor."),
  item(2, "assistant", "Noted: Berlin, dark mode."),
];

interface Harness {
  refinement: MemoryRefinement;
  store: MemoryStore;
  cursors: ExtractionCursors;
  logs: RefinementLogEntry[];
  calls: ProviderRequest[];
  events: string[];
  dispose(): Promise<void>;
}

/** A provider that answers each call with the next scripted text, after `delayMs`. */
async function harness(
  answers: string[],
  delayMs = 0,
  items: RefinementItem[] = ITEMS,
): Promise<Harness> {
  const dir = await Deno.makeTempDir();
  const store = MemoryStore.open(`${dir}/memory.db`);
  const cursors = new ExtractionCursors(store.database);
  const logs: RefinementLogEntry[] = [];
  const calls: ProviderRequest[] = [];
  const events: string[] = [];
  const provider: Provider = {
    id: "fake",
    models: ["m"],
    async *stream(request): AsyncIterable<ProviderEvent> {
      const n = calls.push(request);
      events.push(`start ${n}`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      events.push(`end ${n}`);
      yield { type: "text_delta", text: answers[n - 1] ?? '{"memories":[]}' };
      yield { type: "finish", responseModelId: "m", requestId: null };
    },
  };
  const refinement = new MemoryRefinement({
    memoryStore: store,
    cursors,
    readCompletedItems: (_threadId, after) =>
      items.filter((entry) => after === null || entry.position.turnOrdinal > after.turnOrdinal),
    provider: (id) => id === "fake" ? provider : undefined,
    protectedValues: { find: (text) => text.includes("sk-live-SECRET42") },
    workspaceKeyOf: () => "ws-1",
    log: (entry) => logs.push(entry),
  });
  return {
    refinement,
    store,
    cursors,
    logs,
    calls,
    events,
    async dispose() {
      await refinement.close();
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function answer(...memories: Record<string, string>[]): string {
  return JSON.stringify({ memories });
}

const run = (runId: string) => ({ runId, threadId: THREAD, providerId: "fake", modelId: "m" });

function active(store: MemoryStore) {
  return store.list({ state: "active" }).memories;
}

Deno.test("good JSON creates memories with auto_extracted provenance and moves the cursor", async () => {
  const h = await harness([answer(
    { content: "Lives in Berlin", kind: "fact", scope: "global", sourceItemId: ITEMS[0].itemId },
    {
      content: "Prefers dark mode",
      kind: "preference",
      scope: "workspace",
      sourceItemId: ITEMS[0].itemId,
    },
    { content: "Made up source", kind: "fact", scope: "global", sourceItemId: "item_x" },
  )]);
  try {
    h.refinement.afterRun(run("run_a"));
    await h.refinement.idle();
    const memories = active(h.store);
    assert.equal(memories.length, 2, "two memories should have been written");
    for (const summary of memories) {
      const memory = h.store.get(summary.id);
      assert.equal(memory.provenance.sourceKind, "auto_extracted");
      assert.equal(memory.provenance.itemId, ITEMS[0].itemId);
      assert.equal(memory.provenance.threadId, THREAD);
    }
    const workspace = memories.find((memory) => memory.kind === "preference");
    assert.deepEqual(workspace?.scope, { type: "workspace", key: "ws-1" });
    assert.equal(h.logs[0].outcome, "extracted");
    assert.deepEqual([h.logs[0].written, h.logs[0].dropped], [2, 1]);
    assert.deepEqual(h.cursors.read(THREAD).position, ITEMS[1].position);
    const input = JSON.stringify(h.calls[0].messages);
    assert.ok(input.includes(ITEMS[0].itemId), "the items were not shown to the model");
    assert.equal(h.calls[0].modelId, "m");
  } finally {
    await h.dispose();
  }
});

Deno.test("an exact duplicate of an active memory is skipped", async () => {
  const h = await harness([answer({
    content: "  lives in BERLIN ",
    kind: "fact",
    scope: "global",
    sourceItemId: ITEMS[0].itemId,
  })]);
  try {
    h.store.create({
      kind: "fact",
      scope: GLOBAL,
      content: "Lives in Berlin",
      clientRequestId: "x",
    });
    h.refinement.afterRun(run("run_a"));
    await h.refinement.idle();
    assert.equal(active(h.store).length, 1, "the duplicate was written");
    assert.equal(h.logs[0].skipped_duplicate, 1);
    assert.ok(JSON.stringify(h.calls[0].messages).includes("Lives in Berlin"), "no catalog");
  } finally {
    await h.dispose();
  }
});

Deno.test("a correction is merged as revision 2, by explicit memoryId and by similarity", async () => {
  const answers: string[] = [];
  const h = await harness(answers);
  try {
    const berlin = h.store.create({
      kind: "fact",
      scope: GLOBAL,
      content: "Lives in Berlin",
      clientRequestId: "a",
    });
    const editor = h.store.create({
      kind: "preference",
      scope: GLOBAL,
      content: "Prefers light mode",
      clientRequestId: "b",
    });
    const source = ITEMS[0].itemId;
    answers.push(answer(
      { content: "Lives in Munich", kind: "fact", scope: "global", sourceItemId: source },
      {
        content: "Wants high contrast themes",
        kind: "preference",
        scope: "global",
        sourceItemId: source,
        memoryId: editor.memoryId,
      },
    ));
    h.refinement.afterRun(run("run_b"));
    await h.refinement.idle();
    const city = h.store.get(berlin.memoryId);
    assert.equal(city.revision, 2, "the similar memory was not revised");
    assert.equal(city.content, "Lives in Munich");
    assert.equal(city.provenance.sourceKind, "auto_extracted");
    const theme = h.store.get(editor.memoryId);
    assert.equal(theme.revision, 2, "the explicit memoryId was not revised");
    assert.equal(theme.content, "Wants high contrast themes");
    assert.equal(active(h.store).length, 2, "a merge created a new memory");
    assert.equal(h.logs.at(-1)?.merged, 2);
  } finally {
    await h.dispose();
  }
});

Deno.test("bad JSON writes nothing and keeps the cursor", async () => {
  const h = await harness([
    "Sure! Here are the memories: Lives in Berlin",
    answer({ content: "x".repeat(513), kind: "fact", scope: "global", sourceItemId: "i" }),
  ]);
  try {
    h.refinement.afterRun(run("run_a"));
    await h.refinement.idle();
    h.refinement.afterRun(run("run_b"));
    await h.refinement.idle();
    assert.equal(active(h.store).length, 0);
    assert.deepEqual(h.logs.map((entry) => entry.outcome), ["invalid_output", "invalid_output"]);
    const cursor = h.cursors.read(THREAD);
    assert.equal(cursor.position, null, "the cursor moved after invalid output");
    assert.notEqual(cursor.attemptedAt, null, "the attempt was not recorded");
  } finally {
    await h.dispose();
  }
});

Deno.test("a candidate carrying a protected value writes nothing", async () => {
  const h = await harness([answer(
    { content: "Lives in Berlin", kind: "fact", scope: "global", sourceItemId: ITEMS[0].itemId },
    {
      content: "API key is sk-live-SECRET42",
      kind: "fact",
      scope: "global",
      sourceItemId: ITEMS[0].itemId,
    },
  )]);
  try {
    h.refinement.afterRun(run("run_a"));
    await h.refinement.idle();
    assert.equal(active(h.store).length, 0, "a memory was written despite the credential");
    assert.equal(h.logs[0].outcome, "protected_value");
    assert.equal(h.cursors.read(THREAD).position, null);
  } finally {
    await h.dispose();
  }
});

Deno.test("one task per thread: a notification during a call runs after it", async () => {
  const items = [...ITEMS];
  const h = await harness([], 30, items);
  try {
    h.refinement.afterRun(run("run_a"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    items.push(item(3, "user", "My sister is called Ada."));
    h.refinement.afterRun(run("run_b"));
    h.refinement.afterRun(run("run_c"));
    await h.refinement.idle();
    assert.deepEqual(h.events, ["start 1", "end 1", "start 2", "end 2"], "calls overlapped");
    assert.deepEqual(h.logs.map((entry) => entry.runId), ["run_a", "run_c"]);
    const second = JSON.stringify(h.calls[1].messages);
    assert.ok(second.includes(items[2].itemId), "the second call missed the new item");
    assert.ok(
      !second.includes(items[0].itemId),
      "the second call re-read an item before the cursor",
    );
    assert.deepEqual(h.cursors.read(THREAD).position, items[2].position);
  } finally {
    await h.dispose();
  }
});

Deno.test("close cancels in-flight work: nothing is written or logged", async () => {
  const h = await harness([answer({
    content: "Lives in Berlin",
    kind: "fact",
    scope: "global",
    sourceItemId: ITEMS[0].itemId,
  })], 40);
  try {
    h.refinement.afterRun(run("run_a"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await h.refinement.close();
    h.refinement.afterRun(run("run_b"));
    await h.refinement.idle();
    assert.equal(active(h.store).length, 0, "a memory was written after close");
    assert.deepEqual(h.logs, [], "a cancelled extraction was logged");
    assert.equal(h.calls.length, 1, "a notification after close called the model");
    assert.equal(h.cursors.read(THREAD).position, null);
  } finally {
    await h.dispose();
  }
});

Deno.test("disabled refinement never calls the model", async () => {
  const h = await harness([]);
  const disabled = new MemoryRefinement({
    memoryStore: h.store,
    cursors: h.cursors,
    readCompletedItems: () => ITEMS,
    provider: () => assert.fail("the provider was looked up"),
    protectedValues: { find: () => false },
    workspaceKeyOf: () => null,
    enabled: false,
  });
  try {
    disabled.afterRun(run("run_a"));
    await disabled.idle();
    assert.equal(h.cursors.read(THREAD).attemptedAt, null);
  } finally {
    await disabled.close();
    await h.dispose();
  }
});

Deno.test("refinement waits for the shared slot and asks the live switch when it gets there", async () => {
  const h = await harness([]);
  const queue = new AuxiliaryQueue();
  let on = true;
  const calls: string[] = [];
  const provider: Provider = {
    id: "fake",
    models: ["m"],
    async *stream(): AsyncIterable<ProviderEvent> {
      calls.push("refinement");
      yield { type: "text_delta", text: '{"memories":[]}' };
      yield { type: "finish", responseModelId: "m", requestId: null };
    },
  };
  const refinement = new MemoryRefinement({
    memoryStore: h.store,
    cursors: h.cursors,
    readCompletedItems: () => ITEMS,
    provider: () => provider,
    protectedValues: { find: () => false },
    workspaceKeyOf: () => null,
    enabled: () => on,
    queue,
  });
  let releaseTitle = () => {};
  const title = queue.enqueue({
    kind: "thread_title",
    stillWanted: () => true,
    run: () => new Promise<void>((resolve) => releaseTitle = resolve),
  });
  try {
    refinement.afterRun(run("run_a"));
    await waitUntil("the refinement to queue behind the title", () => queue.waiting === 1);
    on = false; // switched off while it waited
    releaseTitle();
    await title;
    await refinement.idle();
    assert.deepEqual(calls, [], "a refinement switched off while queued called the model");
    assert.equal(h.cursors.read(THREAD).attemptedAt, null);
    on = true;
    refinement.afterRun(run("run_b"));
    await refinement.idle();
    assert.deepEqual(calls, ["refinement"], "switched on again, the next Run's refinement runs");
  } finally {
    await refinement.close();
    await h.dispose();
  }
});

/**
 * Memory through the loop: the `memory` tool saves with provenance, a later Run in
 * another thread recalls it into its input (as contextual data), search and forget.
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider } from "../providers/scripted.ts";
import { messageText, type ProviderRequest } from "../providers/provider.ts";
import { dispatchOn } from "../_test_dispatch.ts";
import { runSettled, waitUntil } from "../_test_wait.ts";

Deno.test("a memory saved by the tool is recalled into a later run's input; forget removes it", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-memflow-" });
  const requests: ProviderRequest[] = [];
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: false,
    providers: [createScriptedProvider({
      script: (request) => {
        requests.push(request);
        const user = messageText(
          [...request.messages].reverse().find((m) => m.role === "user")!.content,
        );
        const toolDone = request.messages.at(-1)?.role === "tool";
        if (toolDone) return { text: ["noted"] };
        if (user.startsWith("remember")) {
          return {
            toolCalls: [{
              name: "memory",
              arguments: {
                action: "save",
                kind: "preference",
                content: "The user prefers replies in French",
              },
            }],
          };
        }
        if (user.startsWith("search")) {
          return {
            toolCalls: [{
              name: "memory",
              arguments: { action: "search", query: "French replies" },
            }],
          };
        }
        return { text: ["bonjour"] };
      },
    })],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((e) => events.push(e));
  const call = dispatchOn(core);
  const runTurn = async (threadId: string, content: string) => {
    const { runId } = await call("turn.start", {
      threadId,
      content,
      providerId: "scripted",
      modelId: "scripted-model",
    });
    await runSettled(events, runId);
  };
  try {
    const one = (await call("thread.create", { title: "one" })).thread;
    await runTurn(one.id, "remember that I like French replies");
    const { memories } = await call("memory.list", {});
    assert.equal(memories.length, 1);
    const memory = (await call("memory.get", { memoryId: memories[0].id })).memory;
    assert.equal(memory.content, "The user prefers replies in French");
    assert.deepEqual([
      memory.provenance.sourceKind,
      memory.provenance.threadId,
      memory.provenance.status,
    ], ["session_item", one.id, "available"]);

    const two = (await call("thread.create", { title: "two" })).thread;
    await runTurn(two.id, "how should you reply to me in French");
    const input = requests.at(-1)!.messages.map((m) => messageText(m.content)).join("\n");
    assert.match(input, /Recalled memories \(contextual data/);
    assert.match(input, /\[preference\] The user prefers replies in French/);
    const prepared = events.filter((e) =>
      e.type === "model.input_prepared" && e.threadId === two.id
    ).at(-1)!;
    assert.deepEqual(
      (prepared.payload as unknown as { stepInput: { recalledMemories: unknown } }).stepInput
        .recalledMemories,
      [{ memoryId: memory.id, revision: 1 }],
    );

    await runTurn(two.id, "search my memories");
    const page = await call("turn.list", { threadId: two.id });
    const result = page.turns[1].runs[0].items.find((i: { kind: string }) =>
      i.kind === "tool_result"
    );
    assert.match(result.content, new RegExp(`${memory.id} r1 \\[preference\\]`));

    await call("memory.forget", {
      memoryId: memory.id,
      expectedRevision: 1,
      clientRequestId: "f1",
    });
    const three = (await call("thread.create", { title: "three" })).thread;
    await runTurn(three.id, "reply in French please");
    assert.doesNotMatch(
      requests.at(-1)!.messages.map((m) => messageText(m.content)).join("\n"),
      /prefers replies in French/,
    );
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("after a completed run, background refinement extracts a memory with auto_extracted provenance", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-refine-" });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    threadTitles: false,
    memoryRefinement: true,
    providers: [createScriptedProvider({
      script: (request) => {
        const system = messageText(request.messages[0]!.content);
        if (request.tools.length === 0 && !system.startsWith("You are Daedalus")) {
          const data = JSON.parse(messageText(request.messages.at(-1)!.content));
          const userItem = JSON.stringify(data).match(/item_[0-9a-f]{32}/)![0];
          return {
            text: [JSON.stringify({
              memories: [{
                content: "The user's cat is called Miso",
                kind: "fact",
                scope: "global",
                sourceItemId: userItem,
              }],
            })],
          };
        }
        return { text: ["What a nice name."] };
      },
    })],
  });
  try {
    const call = dispatchOn(core);
    const { thread } = await call("thread.create", { title: "cat" });
    await call("turn.start", {
      threadId: thread.id,
      content: "My cat is called Miso",
      providerId: "scripted",
      modelId: "scripted-model",
    });
    const memories: { id: string }[] = await waitUntil("refinement to write a memory", async () => {
      const listed: { id: string }[] = (await call("memory.list", {})).memories;
      return listed.length > 0 && listed;
    });
    assert.equal(memories.length, 1, "refinement wrote more than the one memory");
    const memory = (await call("memory.get", { memoryId: memories[0]!.id })).memory;
    assert.equal(memory.content, "The user's cat is called Miso");
    assert.equal(memory.provenance.sourceKind, "auto_extracted");
    assert.equal(memory.provenance.threadId, thread.id);
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});

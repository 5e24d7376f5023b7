/**
 * What the model sees across turns, in process: the status block after a failed
 * run, images for vision models, and reasoning-effort defaults.
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { openRuntimeCore } from "../runtime_core.ts";
import { createScriptedProvider, type Script } from "../providers/scripted.ts";
import { messageText } from "../providers/provider.ts";
import { runSettled } from "../_test_wait.ts";

// deno-lint-ignore no-explicit-any
type Call = (method: string, params: unknown) => Promise<any>;

async function withRuntime(
  script: Script,
  models: string[],
  fn: (call: Call, settled: (runId: string) => Promise<JournalEvent>, dir: string) => Promise<void>,
) {
  const home = await Deno.makeTempDir({ prefix: "daedalus-flow-" });
  const provider = createScriptedProvider({ script, models });
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/ws`,
    providers: [provider],
    threadTitles: false,
    memoryRefinement: false,
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  const call = async (method: string, params: unknown) => {
    const outcome = await core.dispatcher.dispatch(method, params, { id: "t", transport: "http" });
    outcome.afterResponse?.();
    return outcome.result;
  };
  const settled = (runId: string) => runSettled(events, runId);
  try {
    await fn(call, settled, home);
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("after a failed run, the next turn's input carries the status block, not a replay", async () => {
  const seen: string[][] = [];
  await withRuntime(
    (request, index) => {
      seen.push(request.messages.map((m) => `${m.role}:${messageText(m.content ?? "")}`));
      if (index === 0) return { text: ["Starting"], error: { category: "timeout" } };
      return { text: ["Recovered."] };
    },
    ["m"],
    async (call, settled) => {
      const { thread } = await call("thread.create", { title: "s" });
      const one = await call("turn.start", {
        threadId: thread.id,
        content: "first",
        providerId: "scripted",
        modelId: "m",
      });
      assert.equal((await settled(one.runId)).payload.reasonCode, "provider_timeout");
      const two = await call("turn.start", {
        threadId: thread.id,
        content: "second",
        providerId: "scripted",
        modelId: "m",
      });
      await settled(two.runId);
      const input = seen[1]!;
      assert.ok(
        input.some((line) =>
          line.startsWith("system:Runtime status") &&
          line.includes("Turn 1: the run failed (provider_timeout)")
        ),
        input.join("\n"),
      );
      assert.equal(input.at(-1), "user:second");
      assert.ok(
        !input.some((line) => line === "assistant:Starting"),
        "the partial answer of a failed run is not replayed as a message",
      );
    },
  );
});

Deno.test("an image attachment reaches a vision model as a data URL and other models as a note", async () => {
  const parts: unknown[] = [];
  await withRuntime(
    (request) => {
      const last = request.messages.at(-1)!;
      parts.push(last.content);
      return { text: ["ok"] };
    },
    ["scripted-vision", "scripted-text"],
    async (call, settled, dir) => {
      const png = `${dir}/shot.png`;
      await Deno.writeFile(
        png,
        new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
      );
      const { thread } = await call("thread.create", { title: "img" });
      const attachments = [{ kind: "image", path: png, mimeType: "image/png" }];
      for (const modelId of ["scripted-vision", "scripted-text"]) {
        const run = await call("turn.start", {
          threadId: thread.id,
          content: "look",
          providerId: "scripted",
          modelId,
          attachments,
        });
        await settled(run.runId);
      }
      const [vision, text] = parts as { type: string; url?: string; text?: string }[][];
      assert.deepEqual(vision!.map((p) => p.type), ["text", "image_url"]);
      assert.ok(vision![1]!.url!.startsWith("data:image/png;base64,"));
      assert.deepEqual(text!.map((p) => p.type), ["text", "text"]);
      assert.match(text![1]!.text!, /does not take images/);
      const page = await call("turn.list", { threadId: thread.id });
      const recorded = page.turns[0].runs[0].items[0].data.attachments[0];
      assert.deepEqual(Object.keys(recorded).sort(), [
        "kind",
        "mimeType",
        "path",
        "sha256",
        "size",
      ]);
    },
  );
});

Deno.test("a Run renders its attachments once: a later step sends the same image after the file went", async () => {
  const images: string[] = [];
  let png = "";
  await withRuntime(
    (request, index) => {
      const user = request.messages.find((m) => m.role === "user");
      const parts = Array.isArray(user?.content) ? user.content : [];
      const image = parts.find((part) => part.type === "image_url") as { url: string } | undefined;
      images.push(image?.url ?? "(no image)");
      if (index === 0) {
        Deno.removeSync(png); // gone before the second step builds its input
        return { toolCalls: [{ name: "list", arguments: { path: "." } }] };
      }
      return { text: ["done"] };
    },
    ["scripted-vision"],
    async (call, settled, dir) => {
      png = `${dir}/shot.png`;
      await Deno.writeFile(png, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const { thread } = await call("thread.create", { title: "img", workspace: { rootUri: dir } });
      const run = await call("turn.start", {
        threadId: thread.id,
        content: "look, then list",
        providerId: "scripted",
        modelId: "scripted-vision",
        attachments: [{ kind: "image", path: png, mimeType: "image/png" }],
      });
      assert.equal((await settled(run.runId)).payload.status, "completed");
      assert.equal(images.length, 2, "two model calls");
      assert.ok(images[0]!.startsWith("data:image/png;base64,"), images[0]);
      assert.equal(images[1], images[0], "the second step's input carries the same image");
    },
  );
});

/**
 * Titles and memory refinement never run beside a user Run on the same provider, nor
 * beside each other: a recording provider notes every request's start and end, and the
 * test fails on any moment where an auxiliary request was in flight together with a user
 * Run's request or with another auxiliary request.
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { openRuntimeCore } from "./runtime_core.ts";
import { createScriptedProvider, type ScriptedResponse } from "./providers/scripted.ts";
import { messageText, type Provider, type ProviderRequest } from "./providers/provider.ts";
import { dispatchOn } from "./_test_dispatch.ts";
import { waitUntil } from "./_test_wait.ts";

type Kind = "user" | "title" | "refinement";

function kindOf(request: ProviderRequest): Kind {
  const system = request.messages[0]?.role === "system"
    ? messageText(request.messages[0].content)
    : "";
  if (request.tools.length === 0 && system.startsWith("Name this conversation")) return "title";
  if (request.tools.length === 0 && system.startsWith("You maintain a user's long-term memory")) {
    return "refinement";
  }
  return "user";
}

function answer(kind: Kind): ScriptedResponse {
  if (kind === "title") return { text: ["Weekly", " report", " plan"], delayMs: 100 };
  if (kind === "refinement") return { text: ['{"memories":', "[]}"], delayMs: 100 };
  return { text: ["Here ", "is ", "the ", "plan."], delayMs: 30 };
}

/** The scripted provider, recording starts, ends and overlaps of requests by kind. */
function recordingProvider() {
  const inner = createScriptedProvider({ script: (request) => answer(kindOf(request)) });
  const inFlight: Record<Kind, number> = { user: 0, title: 0, refinement: 0 };
  const log: string[] = [];
  const overlaps: string[] = [];
  const provider: Provider = {
    id: inner.id,
    models: inner.models,
    async *stream(request, signal) {
      const kind = kindOf(request);
      const auxiliary = inFlight.title + inFlight.refinement;
      if (kind === "user" && auxiliary > 0) overlaps.push(`user started beside ${auxiliary} aux`);
      if (kind !== "user" && inFlight.user > 0) overlaps.push(`${kind} started beside a user Run`);
      if (kind !== "user" && auxiliary > 0) {
        overlaps.push(`${kind} started beside ${auxiliary} aux`);
      }
      inFlight[kind]++;
      log.push(`${kind} start`);
      try {
        yield* inner.stream(request, signal);
        log.push(`${kind} finished`);
      } catch (error) {
        log.push(`${kind} aborted`);
        throw error;
      } finally {
        inFlight[kind]--;
      }
    },
  };
  return { provider, inFlight, log, overlaps };
}

Deno.test("titles and memory refinement wait for the user's Runs on their provider and still arrive after them", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-aux-" });
  const recording = recordingProvider();
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [recording.provider],
    threadTitles: true,
    memoryRefinement: true,
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  const call = dispatchOn(core);
  const detail = () => recording.log.join("\n");
  const turn = (threadId: string, content: string) =>
    call("turn.start", { threadId, content, providerId: "scripted", modelId: "scripted-model" });
  const settled = (runId: string) =>
    waitUntil(
      `run ${runId} to settle`,
      () => events.some((event) => event.type === "run.settled" && event.runId === runId),
      detail,
    );
  const titleOf = async (threadId: string) =>
    (await call("thread.get", { threadId })).thread.title as string;
  try {
    const first = (await call("thread.create", { title: "first" })).thread;
    const second = (await call("thread.create", { title: "second" })).thread;
    await settled((await turn(first.id, "plan my weekly report")).runId);
    // The first thread's title and refinement start now; the user sends on the second.
    await waitUntil(
      "an auxiliary request",
      () => recording.inFlight.title + recording.inFlight.refinement > 0,
      detail,
    );
    const next = await turn(second.id, "and the monthly one");
    await settled(next.runId);
    await waitUntil("both titles", () => {
      const renamed = events.filter((event) => event.type === "thread.renamed");
      return renamed.length === 2;
    }, detail);
    await waitUntil(
      "both refinements",
      () => recording.log.filter((entry) => entry === "refinement finished").length === 2,
      detail,
    );
    assert.deepEqual(recording.overlaps, [], detail());
    assert.ok(
      recording.log.some((entry) => entry.endsWith("aborted")),
      `the second Run should have cut a streaming auxiliary request short\n${detail()}`,
    );
    assert.equal(await titleOf(first.id), "Weekly report plan");
    assert.equal(await titleOf(second.id), "Weekly report plan");
  } finally {
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a title queued behind another auxiliary call is dropped when the user names the thread meanwhile", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-aux-" });
  const seen: string[] = [];
  let releaseRefinement = () => {};
  const refinementHeld = new Promise<void>((resolve) => releaseRefinement = resolve);
  const provider = (id: string, holdRefinement: boolean): Provider => {
    const inner = createScriptedProvider({ id, script: (request) => answer(kindOf(request)) });
    return {
      id,
      models: inner.models,
      async *stream(request, signal) {
        const kind = kindOf(request);
        seen.push(`${id} ${kind}`);
        if (kind === "refinement" && holdRefinement) await refinementHeld;
        yield* inner.stream(request, signal);
      },
    };
  };
  const core = await openRuntimeCore({
    home,
    workspacesRoot: `${home}/workspaces`,
    providers: [provider("scripted", true), provider("other", false)],
  });
  const events: JournalEvent[] = [];
  core.hub.subscribe((event) => events.push(event));
  const call = dispatchOn(core);
  const detail = () => seen.join("\n");
  const settledRun = async (threadId: string, providerId: string) => {
    const { runId } = await call("turn.start", {
      threadId,
      content: "plan",
      providerId,
      modelId: "scripted-model",
    });
    await waitUntil(
      `run ${runId} to settle`,
      () => events.some((event) => event.type === "run.settled" && event.runId === runId),
      detail,
    );
  };
  try {
    const first = (await call("thread.create", { title: "first" })).thread;
    const second = (await call("thread.create", { title: "second" })).thread;
    await settledRun(first.id, "scripted");
    await waitUntil(
      "the first thread's refinement to hold the slot",
      () => seen.includes("scripted refinement"),
      detail,
    );
    await settledRun(second.id, "other"); // another provider: its Run is not held back
    await call("thread.rename", { threadId: second.id, title: "Named by me" });
    releaseRefinement();
    await waitUntil(
      "the second thread's refinement (queued after its title)",
      () => seen.includes("other refinement"),
      detail,
    );
    assert.ok(
      !seen.includes("other title"),
      `a title was asked for a user-named thread\n${detail()}`,
    );
    assert.equal((await call("thread.get", { threadId: second.id })).thread.title, "Named by me");
  } finally {
    releaseRefinement();
    await core.close();
    await Deno.remove(home, { recursive: true });
  }
});

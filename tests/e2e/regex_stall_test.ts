/**
 * A model-supplied regex cannot stall the runtime: in a real `daedalus serve` (the scripted
 * fixture, shipped flags), `grep` with a catastrophic-backtracking pattern answers, a slow
 * (linear, but costly) search is stopped by its time limit while `/health` keeps answering,
 * and a cancelled read_only run with such a grep settles. Both the in-process path
 * (full_access) and the sandbox Worker (read_only) are driven.
 */
import assert from "node:assert/strict";
import type { JournalEvent } from "@daedalus/protocol";
import { makeTempHome, startFixture, WAIT_MS } from "./_harness.ts";
import { delay, openClient, type RecordingClient, turnParams } from "./_clients.ts";

const CATASTROPHIC = "^(a+)+$";
// Defeats RE2's DFA over random a/b text: the NFA then needs minutes for SLOW_FILE.
const SLOW = "(?i)a[ab]{600}c";

function randomAbLines(lines: number, width: number): string {
  let seed = 7;
  const out: string[] = [];
  for (let line = 0; line < lines; line++) {
    let text = "";
    for (let i = 0; i < width; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      text += seed < 1073741824 ? "a" : "b";
    }
    out.push(text);
  }
  return out.join("\n");
}

/** Polls `/health` until stopped; records when each answer arrived. */
function pollHealth(url: string): { answers: number[]; stop: () => Promise<void> } {
  const answers: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const response = await fetch(`${url}health`, { signal: AbortSignal.timeout(WAIT_MS) })
        .catch((error) => {
          throw new Error(`/health did not answer within ${WAIT_MS} ms: the runtime stalled`, {
            cause: error,
          });
        });
      await response.body?.cancel();
      if (response.ok) answers.push(performance.now());
      await delay(50);
    }
  })();
  return {
    answers,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

function toolResultOf(events: readonly JournalEvent[], runId: string): string {
  const result = events.find((event) =>
    event.type === "item.completed" && event.runId === runId &&
    (event.payload as { item: { kind: string } }).item.kind === "tool_result"
  );
  return JSON.stringify(result?.payload ?? null);
}

async function grepRun(
  recording: RecordingClient,
  threadId: string,
  args: Record<string, unknown>,
  executionPolicy: "full_access" | "read_only",
): Promise<string> {
  const { runId } = await recording.client.call(
    "turn.start",
    turnParams(threadId, `call: grep ${JSON.stringify(args)}`, { executionPolicy }),
  );
  return runId;
}

function settledOf(recording: RecordingClient, runId: string): Promise<JournalEvent> {
  return recording.waitForEvent(
    `run ${runId} to settle`,
    (event) => event.type === "run.settled" && event.runId === runId,
  );
}

function arrivedAt(recording: RecordingClient, predicate: (e: JournalEvent) => boolean) {
  const arrivals = new Map<JournalEvent, number>();
  const off = recording.client.onEvent((event) => {
    if (predicate(event)) arrivals.set(event, performance.now());
  });
  return { arrivals, off };
}

Deno.test("grep with a catastrophic or slow pattern never stalls the runtime", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const workspace = `${home.workspacesRoot}/project`;
  await Deno.mkdir(workspace);
  await Deno.writeTextFile(`${workspace}/aaa.txt`, `${"a".repeat(100_000)}!\n`);
  await Deno.writeTextFile(`${workspace}/ab.txt`, randomAbLines(6000, 1000));
  await using recording = await openClient(server.url, await server.token());
  const { thread } = await recording.client.call("thread.create", {
    title: "regex",
    workspace: { rootUri: workspace },
  });
  for (const policy of ["full_access", "read_only"] as const) {
    const fast = await grepRun(recording, thread.id, { pattern: CATASTROPHIC }, policy);
    assert.equal((await settledOf(recording, fast)).payload.status, "completed", policy);
    assert.match(
      toolResultOf(recording.events, fast),
      /No matches for \/\^\(a\+\)\+\$\//,
      `${policy}: the catastrophic pattern gets an answer`,
    );

    // The tool_call item starts when the call does and completes with its result.
    const tools = arrivedAt(
      recording,
      (e) => e.type === "item.started" || e.type === "item.completed",
    );
    const health = pollHealth(server.url);
    const slow = await grepRun(recording, thread.id, { pattern: SLOW, path: "ab.txt" }, policy);
    const settled = await settledOf(recording, slow);
    await health.stop();
    tools.off();
    assert.match(toolResultOf(recording.events, slow), /grep_timeout/, policy);
    const kindOf = (e: JournalEvent) => (e.payload as { item: { kind: string } }).item.kind;
    const times = [...tools.arrivals].filter(([e]) => e.runId === slow);
    const called = times.find(([e]) =>
      e.type === "item.started" && kindOf(e) === "tool_call"
    )?.[1] ??
      Infinity;
    const answered = times.find(([e]) => kindOf(e) === "tool_result")?.[1] ?? -Infinity;
    const during = health.answers.filter((at) => at > called && at < answered).length;
    console.log(`${policy}: /health answered ${during} times while the slow grep ran`);
    assert.ok(during > 0, `${policy}: /health answered while grep ran`);
    assert.equal(settled.payload.status, "completed", `${policy}: the run settles`);
  }
});

Deno.test("a cancelled read_only run with a slow grep settles, and the runtime stays up", async () => {
  await using home = await makeTempHome();
  await using server = await startFixture(home);
  const workspace = `${home.workspacesRoot}/project`;
  await Deno.mkdir(workspace);
  await Deno.writeTextFile(`${workspace}/ab.txt`, randomAbLines(6000, 1000));
  await using recording = await openClient(server.url, await server.token());
  const { thread } = await recording.client.call("thread.create", {
    title: "cancel",
    workspace: { rootUri: workspace },
  });
  const runId = await grepRun(recording, thread.id, { pattern: SLOW }, "read_only");
  await recording.waitForEvent(
    "the grep call",
    (e) =>
      e.type === "item.started" && e.runId === runId &&
      (e.payload as { item: { kind: string } }).item.kind === "tool_call",
  );
  await recording.client.call("run.cancel", { runId });
  const settled = await settledOf(recording, runId);
  assert.equal(settled.payload.status, "cancelled");
  const health = await fetch(`${server.url}health`);
  assert.equal(health.status, 200);
  await health.body?.cancel();
  // The sandbox is usable again: the next read_only grep answers.
  const next = await grepRun(recording, thread.id, { pattern: "^ab", limit: 1 }, "read_only");
  assert.equal((await settledOf(recording, next)).payload.status, "completed");
  assert.match(toolResultOf(recording.events, next), /ab\.txt:\d+:ab/);
});

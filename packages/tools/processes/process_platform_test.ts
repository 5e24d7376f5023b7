/**
 * The process manager asks the OS only through its {@linkcode ProcessPlatform}: a recording
 * platform (the POSIX adapter underneath, so real processes run) sees every spawn, tree
 * signal and start-time look-up, and a Windows-like platform without PTYs or pauses is
 * handled by the manager as such.
 */
import assert from "node:assert/strict";
import { newId } from "@daedalus/protocol";
import { ProcessManager, type StartProcessOptions } from "./process_manager.ts";
import { ProcessError } from "./process_error.ts";
import type { ProcessPlatform, SpawnSpec, TreeSignal } from "./_platform.ts";
import { posixPlatform } from "./_spawn.ts";
import { windowsPlatform } from "./_spawn_windows.ts";

interface Recording extends ProcessPlatform {
  spawns: SpawnSpec[];
  signals: [number, TreeSignal][];
}

function recording(base: ProcessPlatform, overrides: Partial<ProcessPlatform> = {}): Recording {
  const platform: Recording = {
    ...base,
    envAllowList: ["PATH", "ONLY_THIS"],
    spawns: [],
    signals: [],
    spawn(spec) {
      platform.spawns.push(spec);
      return base.spawn(spec);
    },
    signalTree(pid, signal) {
      platform.signals.push([pid, signal]);
      return base.signalTree(pid, signal);
    },
    ...overrides,
  };
  return platform;
}

function spec(cwd: string, command: string, extra: Partial<StartProcessOptions> = {}) {
  return {
    threadId: newId("thread"),
    runId: newId("run"),
    itemId: newId("item"),
    command,
    cwd,
    ...extra,
  };
}

Deno.test("the manager spawns, filters the environment and stops trees through its platform", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus-platform-" });
  const platform = recording(posixPlatform);
  const manager = new ProcessManager({
    processesRoot: root,
    platform,
    sourceEnv: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ONLY_THIS: "1", OTHER: "no" },
    followIntervalMs: 20,
    stopGraceMs: 2_000,
  });
  try {
    const record = await manager.start(spec(root, "sleep 30"));
    assert.equal(platform.spawns.length, 1, "the manager spawned outside its platform");
    const [spawned] = platform.spawns;
    assert.equal(spawned.command, "sleep 30");
    assert.equal(spawned.env.ONLY_THIS, "1", "the platform's allow-list is the default");
    assert.equal(spawned.env.OTHER, undefined, "a variable outside the allow-list leaked");
    const stopped = await manager.stop(record.processId);
    assert.equal(stopped.state, "terminated");
    assert.deepEqual(platform.signals[0], [record.pid, "terminate"], "stop must ask first");
    assert.ok(
      platform.signals.every(([pid]) => pid === record.pid),
      `signals to other pids: ${JSON.stringify(platform.signals)}`,
    );
  } finally {
    await manager.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the manager stops a tree that ignores the request with a kill after the grace", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus-platform-" });
  // A platform whose "terminate" reaches nobody, as a Windows console program ignores
  // taskkill without /F: only the kill after the grace period ends it.
  const platform = recording(posixPlatform);
  const ignoring: Recording = {
    ...platform,
    signalTree(pid, signal) {
      platform.signals.push([pid, signal]);
      return signal === "terminate" ? Promise.resolve() : posixPlatform.signalTree(pid, signal);
    },
  };
  const manager = new ProcessManager({
    processesRoot: root,
    platform: ignoring,
    followIntervalMs: 20,
    stopGraceMs: 300,
  });
  try {
    const record = await manager.start(spec(root, "sleep 30"));
    const began = Date.now();
    const stopped = await manager.stop(record.processId);
    assert.equal(stopped.state, "terminated");
    assert.ok(Date.now() - began >= 250, "it was killed before the grace period ended");
    assert.deepEqual(platform.signals.slice(0, 2), [
      [record.pid, "terminate"],
      [record.pid, "kill"],
    ]);
  } finally {
    await manager.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("on a platform without PTYs the manager refuses pty and tracks nothing", async () => {
  const root = await Deno.makeTempDir({ prefix: "daedalus-platform-" });
  const manager = new ProcessManager({ processesRoot: root, platform: windowsPlatform() });
  try {
    await assert.rejects(
      manager.start(spec(root, "npm run dev", { pty: true })),
      (error: unknown) => error instanceof ProcessError && error.code === "pty_unavailable",
    );
    assert.deepEqual(manager.records(), [], "a refused start left a record behind");
  } finally {
    await manager.close();
    await Deno.remove(root, { recursive: true });
  }
});

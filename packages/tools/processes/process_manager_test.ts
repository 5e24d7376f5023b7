import assert from "node:assert/strict";
import { newId } from "@daedalus/protocol";
import type { ProcessRecord } from "@daedalus/protocol";
import { ProcessManager, type StartProcessOptions } from "./process_manager.ts";
import { observeStartTime } from "./_spawn.ts";

interface Harness {
  root: string;
  records: ProcessRecord[];
  manager: ProcessManager;
  spec(command: string, extra?: Partial<StartProcessOptions>): StartProcessOptions;
  fullOutput(processId: string): Promise<string>;
}

async function withManager(fn: (h: Harness) => Promise<void>) {
  const root = await Deno.makeTempDir();
  const records: ProcessRecord[] = [];
  const manager = new ProcessManager({
    processesRoot: root,
    onRecord: (record) => records.push(record),
    superviseBackoffMs: 1,
    stopGraceMs: 2_000,
    followIntervalMs: 20,
  });
  const threadId = newId("thread");
  const started: string[] = [];
  const harness: Harness = {
    root,
    records,
    manager,
    spec: (command, extra) => ({
      threadId,
      runId: newId("run"),
      itemId: newId("item"),
      command,
      cwd: root,
      ...extra,
    }),
    fullOutput: async (processId) => {
      let text = "";
      let cursor = 0;
      for (let guard = 0; guard < 1000; guard++) {
        const page = await manager.read(processId, cursor);
        text += page.output;
        cursor = page.nextCursor;
        if (!page.hasMore) break;
      }
      return text;
    },
  };
  const start = manager.start.bind(manager);
  manager.start = async (options) => {
    const record = await start(options);
    started.push(record.processId);
    return record;
  };
  try {
    await fn(harness);
  } finally {
    for (const id of started) await manager.stop(id).catch(() => undefined);
    await manager.close();
    await Deno.remove(root, { recursive: true });
  }
}

/** Polls `check` until it holds (a guard against hanging, not a timing assertion). */
async function until(what: string, check: () => Promise<boolean> | boolean) {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`Gave up waiting: ${what}`);
}

Deno.test("process manager captures stdout and stderr and the exit code", () =>
  withManager(async ({ manager, spec, records, fullOutput }) => {
    const record = await manager.start(spec("echo hello; echo oops >&2; exit 3"));
    assert.equal(record.state, "running");
    assert.equal(typeof record.pid, "number");
    const { record: done, timedOut } = await manager.wait(record.processId, 10_000);
    assert.equal(timedOut, false);
    assert.equal(done.state, "exited");
    assert.equal(done.exitCode, 3);
    assert.equal(await fullOutput(record.processId), "hello\noops\n");
    assert.equal(records.at(-1)?.state, "exited", "the final state is reported");
    assert.equal(records.at(0)?.state, "running", "the start is reported");
  }));

Deno.test("process manager records the background flag and filters the environment", () =>
  withManager(async ({ manager, spec, fullOutput }) => {
    Deno.env.set("DAEDALUS_TEST_SECRET", "leak");
    try {
      const fore = await manager.start(spec("env"));
      const back = await manager.start(spec("true", { background: true }));
      assert.equal(fore.background, false);
      assert.equal(back.background, true);
      await manager.wait(fore.processId, 10_000);
      const env = await fullOutput(fore.processId);
      assert.match(env, /PYTHONIOENCODING=utf-8/);
      assert.match(env, /PYTHONUTF8=1/);
      assert.doesNotMatch(env, /DAEDALUS_TEST_SECRET/);
    } finally {
      Deno.env.delete("DAEDALUS_TEST_SECRET");
    }
  }));

Deno.test("process manager stop kills the whole process tree", () =>
  withManager(async ({ manager, spec, root }) => {
    const record = await manager.start(spec(`sleep 1000 & echo $! > ${root}/child.pid; wait`));
    await until("child pid written", async () => {
      return (await Deno.readTextFile(`${root}/child.pid`).catch(() => "")).trim() !== "";
    });
    const childPid = Number((await Deno.readTextFile(`${root}/child.pid`)).trim());
    assert.notEqual(await observeStartTime(childPid), null, "the sleep child runs before stop");
    const stopped = await manager.stop(record.processId);
    assert.equal(stopped.state, "terminated");
    await until("the sleep child is gone", async () => await observeStartTime(childPid) === null);
    assert.equal(await observeStartTime(record.pid ?? 0), null, "the root shell is gone");
  }));

Deno.test("process manager folds large output and keeps head, marker and newest tail", () =>
  withManager(async ({ manager, spec }) => {
    // 1.8 MB in 200,000 writes spread over several follow ticks, so the log folds while the
    // command still writes (a fold that cut the file under a writer lost bytes here).
    const flood = "i=0; while [ $i -lt 200000 ]; do printf xxxxxxxxx; i=$((i+1)); done";
    const record = await manager.start(spec(`printf START; ${flood}; printf END`));
    // On a loaded 2-core machine this can take a while: wait long, and say so when it did
    // not finish rather than failing on an empty tail.
    const waited = await manager.wait(record.processId, 60_000);
    assert.equal(waited.timedOut, false, "the 1.8 MB command did not finish within 60 s");
    const head = await manager.read(record.processId, 0, 5);
    assert.equal(head.output, "START");
    const total = 1_800_008;
    assert.equal(waited.record.outputBytes, total, "every byte is counted");
    const tail = await manager.read(record.processId, total - 3);
    assert.equal(tail.output, "END");
    assert.equal(tail.hasMore, false);
    const middle = await manager.read(record.processId, 1_000_000);
    assert.match(middle.output, /\.\.\. \d+ bytes omitted \.\.\./);
    assert.equal(middle.truncated, true);
  }));

Deno.test("process manager supervises restarts and stops at a restart storm", () =>
  withManager(async ({ manager, spec, fullOutput }) => {
    const record = await manager.start(spec("echo run; exit 1", { supervise: "on-failure" }));
    const { record: done } = await manager.wait(record.processId, 20_000);
    assert.equal(done.state, "exited");
    assert.equal(done.errorCode, "supervise_storm");
    assert.equal(done.exitCode, 1, "the last exit code is kept");
    assert.equal(done.restartCount, 10);
    assert.equal((await fullOutput(record.processId)).match(/run/g)?.length, 11);
  }));

Deno.test("process manager does not restart a clean exit under on-failure", () =>
  withManager(async ({ manager, spec }) => {
    const record = await manager.start(spec("exit 0", { supervise: "on-failure" }));
    const { record: done } = await manager.wait(record.processId, 10_000);
    assert.equal(done.state, "exited");
    assert.equal(done.restartCount, 0);
  }));

Deno.test("process manager runs pty commands on a terminal with echoed input and resize", () =>
  withManager(async ({ manager, spec, fullOutput }) => {
    const command = "test -t 1 && echo IS_TTY; read line; echo got:$line; read x; stty size";
    const record = await manager.start(spec(command, { pty: true }));
    await until("pty ready", async () => (await fullOutput(record.processId)).includes("IS_TTY"));
    await manager.write(record.processId, "hello\n");
    await until("echo", async () => (await fullOutput(record.processId)).includes("got:hello"));
    await manager.resize(record.processId, 50, 20);
    await manager.write(record.processId, "\n");
    const { record: done } = await manager.wait(record.processId, 10_000);
    assert.equal(done.exitCode, 0);
    const output = await fullOutput(record.processId);
    assert.match(output, /hello\r?\n/, "the terminal echoes input");
    assert.match(output, /20 50/);
  }));

Deno.test("process manager refuses resize without a terminal", () =>
  withManager(async ({ manager, spec }) => {
    const record = await manager.start(spec("sleep 1000"));
    await assert.rejects(() => manager.resize(record.processId, 80, 24), {
      code: "process_not_pty",
    });
  }));

Deno.test({
  name: "process manager re-adopts a live background process after a restart",
  // The first manager's child handle stays pending until the second one stops the process.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withManager(async ({ manager, spec, root }) => {
      const command = "for i in 1 2 3 4 5 6 7 8 9 10; do echo tick $i; sleep 0.2; done; sleep 1000";
      const record = await manager.start(spec(command, { background: true }));
      await until("first tick", async () => {
        return (await manager.read(record.processId)).output.includes("tick 1");
      });
      await manager.close(); // the runtime goes away; the process keeps running
      const records: ProcessRecord[] = [];
      const next = new ProcessManager({
        processesRoot: root,
        onRecord: (r) => records.push(r),
        followIntervalMs: 20,
        stopGraceMs: 2_000,
      });
      try {
        const [recovered] = await next.recover([{ ...record }]);
        assert.equal(recovered.state, "running");
        assert.equal(recovered.errorCode, "runtime_recovered");
        await until("later ticks", async () => {
          return (await next.read(record.processId)).output.includes("tick 10");
        });
        await assert.rejects(() => next.write(record.processId, "x"), {
          code: "process_recovered",
        });
        const stopped = await next.stop(record.processId);
        assert.equal(stopped.state, "terminated");
        assert.equal(await observeStartTime(record.pid ?? 0), null, "the process is gone");
      } finally {
        await next.close();
      }
    }),
});

Deno.test("process manager settles a dead process as unknown on recovery", () =>
  withManager(async ({ manager, spec, root }) => {
    const record = await manager.start(spec("echo before"));
    await manager.wait(record.processId, 10_000);
    const next = new ProcessManager({ processesRoot: root });
    try {
      const [settled] = await next.recover([{ ...record, state: "running" }]);
      assert.equal(settled.state, "unknown");
      assert.equal(settled.errorCode, "runtime_interrupted");
      assert.equal((await next.read(record.processId)).output, "before\n");
    } finally {
      await next.close();
    }
  }));

Deno.test("a supervised command that died while no runtime ran restarts on recovery", () =>
  withManager(async ({ manager, spec, root }) => {
    const record = await manager.start(spec("echo once", { supervise: "on-failure" }));
    await manager.wait(record.processId, 10_000);
    const next = new ProcessManager({
      processesRoot: root,
      superviseBackoffMs: 10,
      followIntervalMs: 20,
    });
    try {
      // The last record said running: the command died while the runtime was down.
      const [recovered] = await next.recover([{
        ...record,
        state: "running",
        supervise: "on-failure",
      }]);
      assert.equal(recovered.state, "running");
      await until("the restart", () => {
        const current = next.record(record.processId);
        return current !== undefined && Number(current.restartCount ?? 0) >= 1 &&
          current.state !== "running";
      });
      const after = next.record(record.processId)!;
      assert.equal(after.restartCount, 1);
      assert.equal(after.state, "exited", "a clean exit under on-failure is not restarted again");
      assert.match((await next.read(record.processId)).output, /once\n.*once\n/s);
    } finally {
      await next.close();
    }
  }));

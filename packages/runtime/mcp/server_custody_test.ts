import assert from "node:assert/strict";
import { join } from "node:path";
import { observeStartTime } from "@daedalus/tools";
import { custodyPath, recordCustody, sweepOrphanServers } from "./server_custody.ts";
import { ProcessGroupStdioTransport } from "./stdio_transport.ts";
import { ServerLog } from "./server_log.ts";

/** Polls until `check` holds (a guard against hanging, not a timing assertion). */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Gave up waiting: ${what}`);
}

/** A process group like a stdio server's: a shell leading a child, both sleeping. */
function orphan(): Deno.ChildProcess {
  return new Deno.Command("/bin/sh", {
    args: ["-c", "sleep 1000 & wait"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
}

Deno.test("a server a crashed runtime left running is stopped at the next start, group and all", async () => {
  const folder = await Deno.makeTempDir();
  const child = orphan();
  try {
    await recordCustody(custodyPath(join(folder, "srv.log")), child.pid);
    await until("the group runs", async () => await observeStartTime(child.pid) !== null);
    const stopped = await sweepOrphanServers(folder);
    assert.deepEqual(stopped, [child.pid]);
    const status = await child.status;
    assert.equal(status.success, false, "it was stopped, not left to finish");
    assert.deepEqual([...Deno.readDirSync(folder)], [], "the record is gone");
  } finally {
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* gone */ }
    await child.status.catch(() => {});
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a record whose pid now belongs to another process, or that is not ours, stops nothing", async () => {
  const folder = await Deno.makeTempDir();
  const child = orphan();
  try {
    // the same pid, but started an hour after the record says: a reused pid
    await Deno.writeTextFile(
      join(folder, "reused.pid.json"),
      JSON.stringify({ pid: child.pid, startedAtMs: Date.now() - 3_600_000 }),
    );
    await Deno.writeTextFile(join(folder, "broken.pid.json"), "{not json");
    await Deno.writeTextFile(
      join(folder, "init.pid.json"),
      JSON.stringify({ pid: 1, startedAtMs: 0 }),
    );
    await Deno.writeTextFile(join(folder, "srv.log"), "a log stays\n");
    assert.deepEqual(await sweepOrphanServers(folder), []);
    assert.notEqual(await observeStartTime(child.pid), null, "the other process still runs");
    assert.deepEqual([...Deno.readDirSync(folder)].map((e) => e.name), ["srv.log"]);
    assert.deepEqual(await sweepOrphanServers(join(folder, "missing")), [], "no folder, nothing");
  } finally {
    Deno.kill(-child.pid, "SIGKILL");
    await child.status.catch(() => {});
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("a stdio server is recorded while it runs and its record removed when it stops", async () => {
  const folder = await Deno.makeTempDir();
  const log = new ServerLog(folder, "srv", (text) => text);
  const transport = new ProcessGroupStdioTransport(
    { command: "/bin/sh", args: ["-c", "cat >/dev/null"], env: {} },
    log,
  );
  const record = custodyPath(log.path);
  try {
    await transport.start();
    const saved = JSON.parse(await Deno.readTextFile(record));
    assert.equal(saved.pid, transport.pid);
    await transport.close();
    await until("the record is removed", async () => {
      return await Deno.stat(record).then(() => false, () => true);
    });
  } finally {
    await transport.close().catch(() => {});
    await Deno.remove(folder, { recursive: true });
  }
});

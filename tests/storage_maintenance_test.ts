/**
 * The storage maintenance commands end to end (`deno task storage …` runs the same
 * entry), and crash safety: a writer killed with SIGKILL at random moments never
 * loses an acknowledged event and never leaves the database failing its check.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { createThread, homePaths, settleRun, startTurn, StateStore } from "@daedalus/storage";
import { testRunConfig } from "../packages/runtime/_test_run_config.ts";

const main = new URL("../packages/runtime/main.ts", import.meta.url).pathname;
const writer = new URL("./fixtures/journal_writer.ts", import.meta.url).pathname;

async function daedalus(home: string, ...args: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", main, ...args, "--home", home],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout).trim();
  return {
    code: output.code,
    report: JSON.parse(stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

async function seededHome() {
  const home = await Deno.makeTempDir({ prefix: "daedalus-home-" });
  const store = StateStore.open(homePaths(home).stateDb);
  const { result } = await createThread(store, { title: "one", workspacesRoot: `${home}/ws` });
  const turn = startTurn(store, {
    threadId: result.thread.id,
    content: "hello",
    providerId: "p",
    modelId: "m",
    runConfig: testRunConfig({ providerId: "p", modelId: "m" }),
  });
  settleRun(store, turn.result.runId, "completed", null);
  store.close();
  return home;
}

Deno.test("storage check passes on a healthy home and prints one JSON object", async () => {
  const home = await seededHome();
  const { code, report } = await daedalus(home, "storage", "check");
  assert.equal(code, 0);
  assert.equal(report.operation, "storage.check");
  assert.equal(report.ok, true);
  assert.equal(report.events, 5);
  await Deno.remove(home, { recursive: true });
});

Deno.test("a drifted projection fails check; repair-projections backs up and fixes it", async () => {
  const home = await seededHome();
  const raw = new DatabaseSync(homePaths(home).stateDb);
  raw.exec("UPDATE threads SET title = 'tampered'");
  raw.close();
  const broken = await daedalus(home, "storage", "check");
  assert.equal(broken.code, 1);
  assert.deepEqual(broken.report.projectionDifferences, ["threads"]);

  const repaired = await daedalus(home, "storage", "repair-projections");
  assert.equal(repaired.code, 0, repaired.stderr);
  assert.deepEqual(repaired.report.repairedTables, ["threads"]);
  assert.ok((await Deno.stat(repaired.report.backup.path)).isFile);
  assert.equal((await daedalus(home, "storage", "check")).report.ok, true);
  await Deno.remove(home, { recursive: true });
});

Deno.test("storage backup writes a copy and refuses to overwrite it", async () => {
  const home = await seededHome();
  const output = `${home}/copy/state.db`;
  const first = await daedalus(home, "storage", "backup", "--output", output);
  assert.equal(first.code, 0, first.stderr);
  const copy = new DatabaseSync(output, { readOnly: true });
  assert.equal(copy.prepare("SELECT count(*) AS n FROM events").get()?.n, 5);
  copy.close();
  const second = await daedalus(home, "storage", "backup", "--output", output);
  assert.equal(second.code, 1);
  assert.equal(second.report.error.code, "backup_exists");
  await Deno.remove(home, { recursive: true });
});

Deno.test("a writer killed with SIGKILL loses no acknowledged event", async () => {
  const home = await Deno.makeTempDir({ prefix: "daedalus-crash-" });
  const statePath = homePaths(home).stateDb;
  for (let round = 0; round < 4; round++) {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", writer, statePath, `${home}/ws`],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const acknowledged: number[] = [];
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const killAfter = 50 + Math.floor(Math.random() * 400);
    let buffer = "";
    // A writer that stalls is killed by the guard, which ends its stdout and this loop.
    let stalled = false;
    const guard = setTimeout(() => {
      stalled = true;
      child.kill("SIGKILL");
    }, 30_000);
    while (acknowledged.length < killAfter) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) if (line) acknowledged.push(Number(line));
    }
    clearTimeout(guard);
    assert.ok(
      !stalled,
      `round ${round}: the writer acknowledged ${acknowledged.length} of ${killAfter} commits in 30 s`,
    );
    child.kill("SIGKILL");
    await child.status;
    await reader.cancel().catch(() => {});

    const { code, report } = await daedalus(home, "storage", "check");
    assert.equal(code, 0, `round ${round}: ${JSON.stringify(report)}`);
    const db = new DatabaseSync(statePath, { readOnly: true });
    const present = new Set(db.prepare("SELECT seq FROM events").all().map((r) => Number(r.seq)));
    db.close();
    const missing = acknowledged.filter((seq) => !present.has(seq));
    assert.deepEqual(missing, [], `round ${round}: acknowledged but lost`);
  }
  await Deno.remove(home, { recursive: true });
});

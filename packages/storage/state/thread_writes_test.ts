import assert from "node:assert/strict";
import {
  createThread,
  hasActiveRun,
  readThread,
  renameThread,
  setThreadArchived,
} from "./thread_writes.ts";
import { startTurn } from "./turn_writes.ts";
import { activateRun, settleRun } from "./run_writes.ts";
import {
  assertValidEvents,
  countRows,
  eventTypes,
  openTestStore,
  readRow,
  seedThread,
  seedTurn,
  storeErrorCode,
  TEST_RUN_CONFIG,
} from "./_test_store.ts";

const GATEWAY_SOURCE = {
  kind: "gateway",
  keyId: `gwkey_${"0f".repeat(16)}`,
  keyName: "Support bot",
} as const;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `<YYYY-MM-DD>/<HHMMSS>-<last 8 hex>` in local time, as the workspace layout wants. */
function workspaceRelativePath(at: Date, threadId: string): string {
  const day = `${pad(at.getFullYear(), 4)}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `${day}/${time}-${threadId.slice(-8)}`;
}

async function listTree(root: string): Promise<string[]> {
  const found: string[] = [];
  for await (const day of Deno.readDir(root)) {
    for await (const folder of Deno.readDir(`${root}/${day.name}`)) {
      found.push(`${day.name}/${folder.name}`);
    }
  }
  return found.sort();
}

Deno.test("createThread makes the managed workspace folder <date>/<HHMMSS>-<id suffix>", async () => {
  await using fixture = await openTestStore();
  const { result, events } = await createThread(fixture.store, {
    title: "managed",
    workspacesRoot: fixture.workspacesRoot,
  });
  const { thread } = result;
  assert.equal(result.created, true);
  assert.equal(thread.workspace?.kind, "managed");
  const rootUri = thread.workspace?.rootUri ?? "";
  assert.ok(rootUri.startsWith(`${fixture.workspacesRoot}/`), `${rootUri} is not under the root`);
  const relative = rootUri.slice(fixture.workspacesRoot.length + 1);
  assert.match(relative, /^\d{4}-\d{2}-\d{2}\/\d{6}-[0-9a-f]{8}$/);
  assert.ok(relative.endsWith(`-${thread.id.slice(-8)}`), "suffix is the thread id's last 8 hex");
  assert.equal(relative, workspaceRelativePath(new Date(thread.createdAt), thread.id));
  assert.ok((await Deno.stat(rootUri)).isDirectory, "the workspace folder exists");
  assert.deepEqual(await listTree(fixture.workspacesRoot), [relative]);
  assert.deepEqual(eventTypes(events), ["thread.created"]);
  assertValidEvents(events);
  const row = readRow(fixture.store, "SELECT * FROM threads WHERE id = ?", thread.id);
  assert.deepEqual(JSON.parse(String(row.workspace_json)), thread.workspace);
  assert.equal(row.title_source, "provisional");
  assert.deepEqual(readThread(fixture.store.db, thread.id), thread);
  assert.equal(
    countRows(fixture.store, "branches", "thread_id = ? AND is_default = 1", thread.id),
    1,
  );
});

Deno.test("createThread names the managed folder from the thread's createdAt (store clock)", async () => {
  await using fixture = await openTestStore();
  const { result } = await createThread(fixture.store, { workspacesRoot: fixture.workspacesRoot });
  const { thread } = result;
  const expected = `${fixture.workspacesRoot}/${
    workspaceRelativePath(new Date(thread.createdAt), thread.id)
  }`;
  assert.equal(
    thread.workspace?.rootUri,
    expected,
    `folder should follow createdAt ${thread.createdAt}, not the wall clock`,
  );
});

Deno.test("createThread records a project folder instead of making one", async () => {
  await using fixture = await openTestStore();
  const { result, events } = await createThread(fixture.store, {
    workspacesRoot: fixture.workspacesRoot,
    workspace: { rootUri: fixture.projectDir },
  });
  assert.deepEqual(
    { kind: result.thread.workspace?.kind, rootUri: result.thread.workspace?.rootUri },
    { kind: "project", rootUri: fixture.projectDir },
  );
  assert.equal(result.thread.workspace?.name, "project", "named after the folder");
  assert.deepEqual(await listTree(fixture.workspacesRoot), [], "no managed folder is made");
  assertValidEvents(events);
  const row = readRow(
    fixture.store,
    "SELECT workspace_json FROM threads WHERE id = ?",
    result.thread.id,
  );
  assert.equal(JSON.parse(String(row.workspace_json)).rootUri, fixture.projectDir);
});

Deno.test("createThread refuses a missing, non-directory or relative project folder and writes nothing", async () => {
  await using fixture = await openTestStore();
  const file = `${fixture.dir}/not_a_folder.txt`;
  await Deno.writeTextFile(file, "x");
  for (const rootUri of [`${fixture.dir}/missing`, file, "project"]) {
    await assert.rejects(
      () =>
        createThread(fixture.store, {
          workspacesRoot: fixture.workspacesRoot,
          workspace: { rootUri },
          clientRequestId: `req-${rootUri}`,
        }),
      storeErrorCode("workspace_unavailable"),
      rootUri,
    );
    assert.equal(countRows(fixture.store), 0, `an event was written for ${rootUri}`);
    assert.equal(countRows(fixture.store, "threads"), 0);
  }
});

Deno.test("createThread retried with the same clientRequestId returns the first thread", async () => {
  await using fixture = await openTestStore();
  const input = { title: "once", clientRequestId: "req-1", workspacesRoot: fixture.workspacesRoot };
  const first = await createThread(fixture.store, input);
  const count = countRows(fixture.store);
  const again = await createThread(fixture.store, input);
  assert.equal(again.result.created, false);
  assert.deepEqual(again.result.thread, first.result.thread);
  assert.deepEqual(again.events, [], "a replay publishes nothing");
  assert.equal(countRows(fixture.store), count, "a replay writes no event");
  assert.equal((await listTree(fixture.workspacesRoot)).length, 1, "a replay makes no folder");

  const project = { clientRequestId: "req-2", workspacesRoot: fixture.workspacesRoot };
  const workspace = { rootUri: fixture.projectDir };
  const p1 = await createThread(fixture.store, { ...project, workspace });
  const p2 = await createThread(fixture.store, { ...project, workspace });
  assert.equal(p2.result.thread.id, p1.result.thread.id);
  assert.equal(p2.result.created, false);
});

Deno.test("createThread with a reused clientRequestId and other params is an idempotency_conflict", async () => {
  await using fixture = await openTestStore();
  const base = { title: "mine", clientRequestId: "req-1", workspacesRoot: fixture.workspacesRoot };
  await createThread(fixture.store, base);
  const count = countRows(fixture.store);
  const variants = [
    { ...base, title: "other" },
    { ...base, title: null },
    { ...base, workspace: { rootUri: fixture.projectDir } },
    { ...base, source: GATEWAY_SOURCE },
  ];
  for (const variant of variants) {
    await assert.rejects(
      () => createThread(fixture.store, variant),
      storeErrorCode("idempotency_conflict"),
    );
    assert.equal(countRows(fixture.store), count, "a conflict writes nothing");
  }
  assert.equal(countRows(fixture.store, "threads"), 1);
});

Deno.test("concurrent createThread retries with one clientRequestId leave one workspace folder", async () => {
  await using fixture = await openTestStore();
  const input = {
    title: "twice",
    clientRequestId: "req-1",
    workspacesRoot: fixture.workspacesRoot,
  };
  const [a, b] = await Promise.all([
    createThread(fixture.store, input),
    createThread(fixture.store, input),
  ]);
  assert.equal(a.result.thread.id, b.result.thread.id, "both calls return one thread");
  assert.deepEqual([a.result.created, b.result.created].sort(), [false, true]);
  assert.equal(countRows(fixture.store, "threads"), 1);
  assert.deepEqual(
    await listTree(fixture.workspacesRoot),
    [a.result.thread.workspace?.rootUri?.slice(fixture.workspacesRoot.length + 1)],
    "only the returned thread's folder should exist; the losing retry's folder is orphaned",
  );
});

Deno.test("renameThread: user titles win over auto titles; no-op renames write nothing", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture, { title: "draft" });
  const source = () => readRow(store, "SELECT title_source FROM threads WHERE id = ?", threadId);

  const auto = renameThread(store, threadId, "Auto title", "auto");
  assert.equal(auto.result.changed, true);
  assert.equal(auto.result.thread.title, "Auto title");
  assert.deepEqual(eventTypes(auto.events), ["thread.renamed"]);
  assertValidEvents(auto.events);
  assert.equal(source().title_source, "auto");

  const sameAuto = renameThread(store, threadId, "Auto title", "auto");
  assert.deepEqual([sameAuto.result.changed, sameAuto.events.length], [false, 0]);

  const user = renameThread(store, threadId, "My title");
  assert.equal(user.result.changed, true);
  assert.equal(user.result.thread.updatedAt, user.events[0].timestamp);
  assert.equal(source().title_source, "user");

  const count = countRows(store);
  const ignored = renameThread(store, threadId, "Better auto title", "auto");
  assert.equal(ignored.result.changed, false, "an auto rename never replaces a user title");
  assert.equal(ignored.result.thread.title, "My title");
  const noop = renameThread(store, threadId, "My title", "user");
  assert.equal(noop.result.changed, false, "renaming to the same user title is a no-op");
  assert.deepEqual([...ignored.events, ...noop.events], []);
  assert.equal(countRows(store), count);
  assert.equal(readThread(store.db, threadId).title, "My title");

  const again = renameThread(store, threadId, "Renamed by user", "user");
  assert.equal(again.result.changed, true, "the user may rename their own title");
  assert.throws(
    () => renameThread(store, "thread_0123456789abcdef0123456789abcdef", "x"),
    storeErrorCode("thread_not_found"),
  );
});

Deno.test("a user rename of a provisional title to the same text claims it for the user", async () => {
  await using fixture = await openTestStore();
  const { threadId } = await seedThread(fixture, { title: "same" });
  const claim = renameThread(fixture.store, threadId, "same", "user");
  assert.equal(claim.result.changed, true);
  assert.equal(renameThread(fixture.store, threadId, "auto", "auto").result.changed, false);
});

Deno.test("setThreadArchived archives and unarchives with changed flags and events", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const archived = setThreadArchived(store, threadId, true);
  assert.equal(archived.result.changed, true);
  assert.equal(archived.result.thread.archivedAt, archived.events[0].timestamp);
  assert.deepEqual(eventTypes(archived.events), ["thread.archived"]);
  assertValidEvents(archived.events);
  assert.equal(readThread(store.db, threadId).archivedAt, archived.result.thread.archivedAt);

  const twice = setThreadArchived(store, threadId, true);
  assert.deepEqual([twice.result.changed, twice.events.length], [false, 0]);

  const unarchived = setThreadArchived(store, threadId, false);
  assert.equal(unarchived.result.changed, true);
  assert.equal(unarchived.result.thread.archivedAt, null);
  assert.deepEqual(eventTypes(unarchived.events), ["thread.unarchived"]);
  assertValidEvents(unarchived.events);
  assert.equal(readThread(store.db, threadId).archivedAt, null);

  const again = setThreadArchived(store, threadId, false);
  assert.deepEqual([again.result.changed, again.events.length], [false, 0]);
  assert.throws(
    () => setThreadArchived(store, "thread_0123456789abcdef0123456789abcdef", true),
    storeErrorCode("thread_not_found"),
  );
});

Deno.test("archiving is refused with thread_busy while a run is queued or running", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  const { runId } = seedTurn(store, threadId);
  assert.equal(hasActiveRun(store.db, threadId), true);
  let count = countRows(store);
  assert.throws(() => setThreadArchived(store, threadId, true), storeErrorCode("thread_busy"));
  assert.equal(countRows(store), count, "a refused archive writes nothing");

  activateRun(store, runId);
  count = countRows(store);
  assert.throws(() => setThreadArchived(store, threadId, true), storeErrorCode("thread_busy"));
  assert.equal(countRows(store), count);
  assert.equal(readThread(store.db, threadId).archivedAt, null);

  settleRun(store, runId, "completed", null);
  assert.equal(hasActiveRun(store.db, threadId), false);
  const archived = setThreadArchived(store, threadId, true);
  assert.equal(archived.result.changed, true, "archiving is allowed once the run settled");
});

Deno.test("an archived thread refuses startTurn with thread_archived until unarchived", async () => {
  await using fixture = await openTestStore();
  const { store } = fixture;
  const { threadId } = await seedThread(fixture);
  setThreadArchived(store, threadId, true);
  const count = countRows(store);
  const input = {
    threadId,
    content: "hi",
    providerId: "p",
    modelId: "m",
    runConfig: TEST_RUN_CONFIG,
  };
  assert.throws(() => startTurn(store, input), storeErrorCode("thread_archived"));
  assert.equal(countRows(store), count);
  assert.equal(countRows(store, "turns"), 0);
  setThreadArchived(store, threadId, false);
  assert.equal(startTurn(store, input).result.created, true);
});

Deno.test("createThread keeps a gateway source on the event, the row and every later read", async () => {
  await using fixture = await openTestStore();
  const made = await createThread(fixture.store, {
    title: "from Dify",
    workspacesRoot: fixture.workspacesRoot,
    source: GATEWAY_SOURCE,
  });
  assertValidEvents(made.events);
  const created = made.events[0]?.payload as { thread: { source: unknown } };
  assert.deepEqual(created.thread.source, GATEWAY_SOURCE, "thread.created must carry the source");
  const id = made.result.thread.id;
  assert.deepEqual(readThread(fixture.store.db, id).source, GATEWAY_SOURCE);
  assert.equal(
    readRow(fixture.store, "SELECT source_json FROM threads WHERE id = ?", id)?.source_json,
    JSON.stringify(GATEWAY_SOURCE),
  );
  const renamed = renameThread(fixture.store, id, "renamed", "user");
  assert.deepEqual(renamed.result.thread.source, GATEWAY_SOURCE, "a rename keeps the source");
  const archived = setThreadArchived(fixture.store, id, true);
  assert.deepEqual(archived.result.thread.source, GATEWAY_SOURCE, "archiving keeps the source");

  const own = await createThread(fixture.store, { workspacesRoot: fixture.workspacesRoot });
  assert.equal(own.result.thread.source, null, "an owner's thread has no source");
  assert.equal(readThread(fixture.store.db, own.result.thread.id).source, null);
});

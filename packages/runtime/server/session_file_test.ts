import assert from "node:assert/strict";
import { SessionStore } from "./session_store.ts";
import { rotateToken, TokenStore } from "./auth_token.ts";
import { readSessionFile } from "./session_file.ts";

async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "daedalus_sessions_test_" });
  try {
    await body(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("sessions: a session survives a new store on the same file (a restart)", async () => {
  await withHome(async (home) => {
    const file = `${home}/sessions.json`;
    const tokens = await TokenStore.open(`${home}/auth.json`);
    const generation = (await tokens.currentGeneration())!;
    const first = new SessionStore({ file });
    const id = first.create(generation);
    await first.flushed();

    const text = await Deno.readTextFile(file);
    assert.ok(!text.includes(id), "the cookie value itself is never stored");
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    }
    // The restarted runtime derives the same generation from the unchanged token.
    const reopened = await TokenStore.open(`${home}/auth.json`);
    assert.equal(await reopened.currentGeneration(), generation);
    const second = new SessionStore({ file });
    assert.ok(second.resolve(id, generation) !== null, "the cookie still works");
  });
});

Deno.test("sessions: logout and rotation are persisted too", async () => {
  await withHome(async (home) => {
    const file = `${home}/sessions.json`;
    const authPath = `${home}/auth.json`;
    const tokens = await TokenStore.open(authPath, { recheckIntervalMs: 0 });
    const generation = (await tokens.currentGeneration())!;
    const store = new SessionStore({ file });
    const kept = store.create(generation);
    const loggedOut = store.create(generation);
    store.revoke(loggedOut);
    await store.flushed();
    const restarted = new SessionStore({ file });
    assert.equal(restarted.resolve(loggedOut, generation), null);
    assert.ok(restarted.resolve(kept, generation) !== null);

    await rotateToken(authPath);
    const rotated = (await tokens.currentGeneration())!;
    assert.notEqual(rotated, generation);
    restarted.dropOtherGenerations(rotated);
    await restarted.flushed();
    assert.deepEqual(readSessionFile(file, () => {}), []);
    assert.equal(new SessionStore({ file }).resolve(kept, rotated), null);
  });
});

Deno.test("sessions: a missing, corrupt or foreign file starts empty with a warning", async () => {
  await withHome(async (home) => {
    const file = `${home}/sessions.json`;
    const warnings: string[] = [];
    const onWarning = (message: string) => warnings.push(message);
    assert.equal(new SessionStore({ file, onWarning }).size, 0);
    assert.deepEqual(warnings, [], "a missing file is normal");

    for (const text of ["{not json", '{"version":2,"sessions":[]}', "[]"]) {
      await Deno.writeTextFile(file, text);
      assert.equal(new SessionStore({ file, onWarning }).size, 0);
    }
    assert.equal(warnings.length, 3);

    // Malformed entries are dropped, valid ones kept.
    const valid = { key: "a".repeat(64), generation: "b".repeat(32) };
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        version: 1,
        sessions: [valid, { key: "short", generation: "b".repeat(32) }, null, { key: 1 }],
      }),
    );
    assert.deepEqual(readSessionFile(file, onWarning), [valid]);
  });
});

Deno.test("sessions: a file over the limit keeps the newest sessions", async () => {
  await withHome(async (home) => {
    const file = `${home}/sessions.json`;
    const store = new SessionStore({ file, maxCount: 2 });
    const generation = "c".repeat(32);
    const ids = [store.create(generation), store.create(generation), store.create(generation)];
    await store.flushed();
    const reloaded = new SessionStore({ file, maxCount: 1 });
    assert.equal(reloaded.size, 1);
    assert.ok(reloaded.resolve(ids[2]!, generation) !== null, "the newest survives");
  });
});

Deno.test("sessions: an unwritable file leaves sessions working in memory", async () => {
  await withHome(async (home) => {
    const warnings: string[] = [];
    // Its directory would have to be where a regular file is.
    await Deno.writeTextFile(`${home}/not-a-dir`, "");
    const store = new SessionStore({
      file: `${home}/not-a-dir/sessions.json`,
      onWarning: (message) => warnings.push(message),
    });
    const generation = "d".repeat(32);
    const id = store.create(generation);
    await store.flushed();
    assert.ok(store.resolve(id, generation) !== null);
    // One for the unreadable file at start, one for the failed write.
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!, /cannot be read/);
    assert.match(warnings[1]!, /cannot be written/);
  });
});
